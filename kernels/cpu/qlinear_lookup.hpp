// kernel<ops::QLinearSigmoid, cpu>, kernel<ops::QLinearLeakyRelu, cpu>: with
// per-tensor scales and zero points an 8-bit input has 256 values, so each
// call builds the 256-entry table of results (dequantize, the activation in
// float32, requantize) and maps the tensor through it.
// kernel<ops::fused::QLinearLookup, cpu>: the table (or one per channel) given as an input.
#pragma once

#include <cmath>

#include "kernels/cpu/qlinear.hpp"
#include "onyx/ops/qlinear_leaky_relu.hpp"
#include "onyx/ops/qlinear_sigmoid.hpp"
#include "onyx/ops/fused/qlinear_lookup.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T, class Op, class F> status qlinear_unary(const call<Op>& c, F f) {
  ONYX_ASSIGN(float xs, qlinear::scale(c, 1, "X_scale"));
  ONYX_ASSIGN(int xz, qlinear::zero_point<T>(c, 2, "X_zero_point"));
  ONYX_ASSIGN(float ys, qlinear::scale(c, 3, "Y_scale"));
  ONYX_ASSIGN(int yz, qlinear::zero_point<T>(c, 4, "Y_zero_point"));
  const qlinear::table t = qlinear::make_table<T>(xs, xz, ys, yz, f);
  const tensor& x = c.input(0);
  qlinear::lookup(t, static_cast<const std::uint8_t*>(x.raw()), static_cast<std::uint8_t*>(c.output(0).raw()),
                  x.size(), c.pool());
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QLinearSigmoid, cpu> {
  static constexpr std::array types{ops::QLinearSigmoid::T};
  template <ops::signature S> static status run(const call<ops::QLinearSigmoid>& c) {
    return kernels::cpu::qlinear_unary<kernels::cpu::qlinear::type<S>>(c, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  }
};

template <> struct kernel<ops::QLinearLeakyRelu, cpu> {
  static constexpr std::array types{ops::QLinearLeakyRelu::T};
  template <ops::signature S> static status run(const call<ops::QLinearLeakyRelu>& c) {
    const float alpha = c.attrs().alpha;
    return kernels::cpu::qlinear_unary<kernels::cpu::qlinear::type<S>>(c, [alpha](float x) { return x < 0 ? alpha * x : x; });
  }
};

template <> struct kernel<ops::fused::QLinearLookup, cpu> {
  static constexpr std::array types{ops::fused::QLinearLookup::T};
  template <ops::signature> static status run(const call<ops::fused::QLinearLookup>& c) {
    const tensor& x = c.input(0);
    const tensor& t = c.input(1);
    const auto* xs = static_cast<const std::uint8_t*>(x.raw());
    auto* ys = static_cast<std::uint8_t*>(c.output(0).raw());
    const auto* ts = static_cast<const std::uint8_t*>(t.raw());
    if (t.rank() == 1 && t.size() == 256) {
      kernels::cpu::qlinear::table table;
      std::memcpy(table.data(), ts, 256);
      kernels::cpu::qlinear::lookup(table, xs, ys, x.size(), c.pool());
      return ok();
    }
    const std::int64_t channels = t.rank() == 2 ? t.dim(0) : 0;
    if (t.rank() != 2 || t.dim(1) != 256 || x.rank() < 2 || x.dim(1) != channels)
      return status(errc::invalid_argument, "QLinearLookup: table " + to_string(t.shape()) + " does not fit X " +
                                                to_string(x.shape()) + " ([256], or [C, 256] with C channels on axis 1)");
    const std::int64_t inner = channels > 0 ? x.size() / (x.dim(0) * channels) : 0;
    const kernels::cpu::isa::u8_lookup_fn f = kernels::cpu::isa::u8_lookup();
    parallel_for(c.pool(), x.dim(0) * channels, std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(inner, 1)),
                 [&](std::int64_t p0, std::int64_t p1) {
                   for (std::int64_t p = p0; p < p1; ++p) f(ts + (p % channels) * 256, xs + p * inner, ys + p * inner, inner);
                 });
    return ok();
  }
};

}  // namespace onyx
