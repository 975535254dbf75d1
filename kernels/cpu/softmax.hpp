// kernels/cpu/softmax.hpp: Softmax, LogSoftmax and Hardmax along one axis.
//
// X is viewed as outer x len x inner with the axis in the middle. Rows with
// inner == 1 are contiguous and processed in place (float32 softmax: all of a
// chunk's rows in one call of the ISA kernel f32_softmax_rows, which runs
// four rows' max, exp-sum and scale chains together); otherwise each row is
// gathered into a contiguous buffer, processed and scattered back.
// Log-softmax uses f32_exp for the sum. float16 and
// bfloat16 rows go through a float buffer; float64 uses std::exp.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/ops/hardmax.hpp"
#include "onyx/ops/log_softmax.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::softmax_detail {

enum class kind { softmax, log_softmax, hardmax };

template <kind K> void row_f32(const float* x, float* y, std::int64_t n, float* scratch) {
  const auto& t = isa::active();
  if constexpr (K == kind::softmax) {
    t.f32_softmax_rows(x, n, y, n, 1, n, nullptr, 0, nullptr);
  } else if constexpr (K == kind::log_softmax) {
    float m = -INFINITY;
    for (std::int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
    for (std::int64_t i = 0; i < n; ++i) scratch[i] = x[i] - m;
    t.f32_exp(scratch, y, n);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += y[i];
    const float ls = static_cast<float>(std::log(sum));
    for (std::int64_t i = 0; i < n; ++i) y[i] = scratch[i] - ls;
  } else {
    std::int64_t best = 0;
    for (std::int64_t i = 1; i < n; ++i)
      if (x[i] > x[best]) best = i;
    for (std::int64_t i = 0; i < n; ++i) y[i] = i == best ? 1.0f : 0.0f;
  }
}

template <kind K> void row_f64(const double* x, double* y, std::int64_t n) {
  if constexpr (K == kind::hardmax) {
    std::int64_t best = 0;
    for (std::int64_t i = 1; i < n; ++i)
      if (x[i] > x[best]) best = i;
    for (std::int64_t i = 0; i < n; ++i) y[i] = i == best ? 1.0 : 0.0;
  } else {
    double m = -INFINITY, sum = 0;
    for (std::int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
    for (std::int64_t i = 0; i < n; ++i) sum += std::exp(x[i] - m);
    if constexpr (K == kind::softmax)
      for (std::int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m) / sum;
    else
      for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] - m - std::log(sum);
  }
}

template <class T, kind K> status run(const kernel_call& c, std::int64_t axis_attr) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(axis_attr, x.rank()));
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= x.dim(d);
  for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  const std::int64_t len = x.dim(axis);
  if (x.size() == 0) return ok();
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;  // working type
  const T* xp = x.data<T>();
  T* yp = c.output(0).template data<T>();
  parallel_for(c.pool(), outer * inner, std::max<std::int64_t>(1, 4096 / len), [&](std::int64_t lo, std::int64_t hi) {
    constexpr bool direct = std::is_same_v<T, W>;
    if constexpr (direct && K == kind::softmax && std::is_same_v<W, float>) {
      if (inner == 1) {  // the chunk's rows are contiguous: one call
        isa::active().f32_softmax_rows(xp + lo * len, len, yp + lo * len, len, hi - lo, len, nullptr, 0, nullptr);
        return;
      }
    }
    std::vector<W> in(static_cast<std::size_t>(len)), out(static_cast<std::size_t>(len)),
        scratch(static_cast<std::size_t>(len));
    for (std::int64_t q = lo; q < hi; ++q) {
      const std::int64_t base = (q / inner) * len * inner + q % inner;
      const W* src;
      W* dst;
      if constexpr (direct) {
        if (inner == 1) {
          src = xp + base;
          dst = yp + base;
        } else {
          for (std::int64_t i = 0; i < len; ++i) in[i] = xp[base + i * inner];
          src = in.data();
          dst = out.data();
        }
      } else {
        for (std::int64_t i = 0; i < len; ++i) in[i] = load(xp[base + i * inner]);
        src = in.data();
        dst = out.data();
      }
      if constexpr (std::is_same_v<W, float>) row_f32<K>(src, dst, len, scratch.data());
      else row_f64<K>(src, dst, len);
      if (dst == out.data())
        for (std::int64_t i = 0; i < len; ++i) yp[base + i * inner] = store<T>(out[i]);
    }
  });
  return ok();
}

/// kernel<Op, cpu> of Softmax, LogSoftmax and Hardmax: float types, along attribute `axis`.
template <class Op, kind K>
struct op_kernel {
  static constexpr std::array types{dtypes::floats};
  template <ops::signature S>
  static status run(const call<Op>& c) {
    return softmax_detail::run<storage_t<S[0]>, K>(c, c.attrs().axis);
  }
};

}  // namespace onyx::kernels::cpu::softmax_detail

namespace onyx {

template <>
struct kernel<ops::Softmax, cpu>
    : kernels::cpu::softmax_detail::op_kernel<ops::Softmax, kernels::cpu::softmax_detail::kind::softmax> {};
template <>
struct kernel<ops::LogSoftmax, cpu>
    : kernels::cpu::softmax_detail::op_kernel<ops::LogSoftmax, kernels::cpu::softmax_detail::kind::log_softmax> {};
template <>
struct kernel<ops::Hardmax, cpu>
    : kernels::cpu::softmax_detail::op_kernel<ops::Hardmax, kernels::cpu::softmax_detail::kind::hardmax> {};

}  // namespace onyx
