// kernels/cpu/gemm.hpp: Gemm on the CPU.
//
// Y = alpha * op(A) * op(B) + beta * C, C broadcast to M x N. float32 runs
// the SGEMM of kernels/cpu/sgemm.hpp (B packed once at prepare time when it
// is constant, see kernels/cpu/mat_mul.hpp); beta * C goes into the
// epilogue as a per-row or per-column bias when C is a column or a row, and
// is copied into Y (the SGEMM's beta then scales it) when it is a matrix.
// The plan step checks the shapes once per signature and asks for the bias
// vector and, for float16, the float32 copies of A, B, C and Y as scratch.
// float64 and the integer types use a plain triple loop.
//
// One row of A (M = 1: a fully connected layer at batch 1) is a GEMV, which
// sgemm runs on B in place (see run_row in kernels/cpu/isa/gemm.cpp), so
// prepare does not pack a B it knows will only meet one row (A's row count
// fixed at 1 in the model): such weights are held once, as the model has
// them.
#pragma once

#include <algorithm>

#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::gemm_detail {

using matmul_detail::packed_state;
using matmul_detail::plain_gemm;
using matmul_detail::usable;

/// Whether A is fixed at one row by its declared shape: prepare then leaves B
/// unpacked (the GEMV reads it in place).
inline bool single_row(const prepare_info<ops::Gemm>& p) {
  const auto& s = p.input(0).shape;
  if (!s.rank_known || s.rank() != 2) return false;
  const auto& m = s[p.attrs().transA != 0 ? 1 : 0];
  return m.known() && m.value() == 1;
}

/// What `plan` fixes per shape: the problem sizes, C's broadcast, whether
/// the prepared B fits, and the scratch offsets.
struct gemm_plan {
  std::int64_t M = 0, N = 0, K = 0;
  std::int64_t cm = 1, cn = 1;  // C right-aligned to M x N: each 1 or the full extent
  bool has_c = false;
  bool packed = false;
  std::size_t bias = 0, a32 = 0, b32 = 0, c32 = 0, y32 = 0;  // scratch offsets
};

template <dtype D>
result<planned<gemm_plan>> plan(const plan_info<ops::Gemm>& p) {
  const auto& at = p.attrs();
  const extents a = p.input_shape(0), b = p.input_shape(1);
  const bool ta = at.transA != 0, tb = at.transB != 0;
  if (a.size() != 2 || b.size() != 2) return status(errc::invalid_argument, "Gemm needs 2-D A and B");
  planned<gemm_plan> r;
  gemm_plan& g = r.plan;
  g.M = ta ? a[1] : a[0];
  g.K = ta ? a[0] : a[1];
  g.N = tb ? b[0] : b[1];
  if ((tb ? b[1] : b[0]) != g.K)
    return status(errc::invalid_argument,
                  "Gemm: op(A) and op(B) disagree on K: A " + to_string(a) + ", B " + to_string(b));
  g.has_c = p.has_input(2) && at.beta != 0.0f;
  if (g.has_c) {
    const extents cs = p.input_shape(2);
    if (cs.size() > 2) return status(errc::invalid_argument, "Gemm: C has rank > 2");
    if (cs.size() >= 1) g.cn = cs.back();
    if (cs.size() == 2) g.cm = cs[0];
    if ((g.cm != 1 && g.cm != g.M) || (g.cn != 1 && g.cn != g.N))
      return status(errc::invalid_argument, "Gemm: C " + to_string(cs) + " does not broadcast to " +
                                                std::to_string(g.M) + "x" + std::to_string(g.N));
  }
  if (p.state_) g.packed = usable(p.state<packed_state>().b, g.K, g.N);
  if constexpr (D == dtype::float32 || D == dtype::float16) {
    scratch_layout layout;
    if (g.has_c && !(g.cm == g.M && g.cn == g.N && g.M > 1 && g.N > 1))
      g.bias = layout.add<float>(g.cm == g.M && g.M > 1 ? g.M : g.N);
    if constexpr (D == dtype::float16) {
      g.a32 = layout.add<float>(element_count(a));
      g.b32 = layout.add<float>(element_count(b));
      if (g.has_c) g.c32 = layout.add<float>(element_count(p.input_shape(2)));
      g.y32 = layout.add<float>(g.M * g.N);
    }
    r.scratch_bytes = layout.bytes;
  }
  return r;
}

template <dtype D>
status run(const call<ops::Gemm>& c) {
  const auto& at = c.attrs();
  const gemm_plan& g = c.plan<gemm_plan>();
  const tensor& a = c.input(0);
  const tensor& b = c.input(1);
  tensor& y = c.output(0);
  const bool ta = at.transA != 0, tb = at.transB != 0;
  const std::int64_t M = g.M, N = g.N, K = g.K, cm = g.cm, cn = g.cn;
  const bool has_c = g.has_c;
  if (M * N == 0) return ok();

  using S = std::conditional_t<D == dtype::float16, float, storage_t<D>>;
  const S* ap;
  const S* bp;
  const S* cp = nullptr;
  S* yp;
  if constexpr (D == dtype::float16) {
    float* af = c.scratch_at<float>(g.a32);
    float* bf = c.scratch_at<float>(g.b32);
    onyx::widen(a, std::span<float>(af, static_cast<std::size_t>(a.size())));
    onyx::widen(b, std::span<float>(bf, static_cast<std::size_t>(b.size())));
    if (has_c) {
      float* cf = c.scratch_at<float>(g.c32);
      onyx::widen(c.input(2), std::span<float>(cf, static_cast<std::size_t>(c.input(2).size())));
      cp = cf;
    }
    ap = af, bp = bf, yp = c.scratch_at<float>(g.y32);
  } else {
    ap = a.data<S>(), bp = b.data<S>(), yp = y.data<S>();
    if (has_c) cp = c.input(2).data<S>();
  }

  if constexpr (std::is_same_v<S, float>) {
    gemm_epilogue ep;
    float beta = 0.0f;
    if (has_c) {
      if (cm == M && cn == N && M > 1 && N > 1) {
        std::copy_n(cp, M * N, yp);
        beta = at.beta;
      } else if (cm == M && M > 1) {
        float* bias = c.scratch_at<float>(g.bias);
        for (std::int64_t i = 0; i < M; ++i) bias[i] = at.beta * cp[i];
        ep.bias = bias;
        ep.kind = gemm_epilogue::bias_kind::per_row;
      } else {
        float* bias = c.scratch_at<float>(g.bias);
        for (std::int64_t j = 0; j < N; ++j) bias[j] = at.beta * cp[cn == 1 ? 0 : j];
        ep.bias = bias;
        ep.kind = gemm_epilogue::bias_kind::per_col;
      }
    }
    if (g.packed)
      sgemm_packed(ta, M, N, K, at.alpha, ap, a.dim(1), c.state<packed_state>().b, beta, yp, N, c.pool(), ep);
    else
      sgemm(ta, tb, M, N, K, at.alpha, ap, a.dim(1), bp, b.dim(1), beta, yp, N, c.pool(), ep);
  } else {
    plain_gemm<S>(ta, tb, M, N, K, ap, a.dim(1), bp, b.dim(1), yp, N);
    const bool scale = at.alpha != 1.0f;
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        S& v = yp[i * N + j];
        if (scale) v = static_cast<S>(static_cast<double>(at.alpha) * static_cast<double>(v));
        if (has_c) {
          const S cv = cp[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
          v += at.beta == 1.0f ? cv : static_cast<S>(static_cast<double>(at.beta) * static_cast<double>(cv));
        }
      }
  }
  if constexpr (D == dtype::float16) onyx::narrow(std::span<const float>(yp, static_cast<std::size_t>(y.size())), y);
  return ok();
}

}  // namespace onyx::kernels::cpu::gemm_detail

namespace onyx {

template <>
struct kernel<ops::Gemm, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64 | dtypes::i32 | dtypes::i64};
  using state = kernels::cpu::matmul_detail::packed_state;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::Gemm>& p) {
    if (kernels::cpu::gemm_detail::single_row(p)) return state{};  // sgemm's GEMV reads B in place
    return kernels::cpu::matmul_detail::prepare_b<S[0]>(p, p.attrs().transB != 0);
  }
  template <ops::signature S>
  static result<planned<kernels::cpu::gemm_detail::gemm_plan>> plan(const plan_info<ops::Gemm>& p) {
    return kernels::cpu::gemm_detail::plan<S[0]>(p);
  }
  template <ops::signature S>
  static status run(const call<ops::Gemm>& c) {
    return kernels::cpu::gemm_detail::run<S[0]>(c);
  }
};

}  // namespace onyx
