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
// One row of A (M = 1: a fully connected layer at batch 1) is a GEMV that
// reads B in place (gemv_row), and prepare does not pack a B it knows will
// only meet one row (A's row count fixed at 1 in the model), so such weights
// are held once. Measured (bench/gemm_bench, fc_* rows, 1 thread, transB):
// K = 25088, N = 4096 (VGG-19 fc6) took 31.8 ms with B packed, 113 ms
// through the SGEMM that packs B per call, 16.3 ms in oneDNN's GEMV; the
// packed panels stream no faster than B's own rows when each weight is used
// once.
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

/// y[n] = alpha * sum_k a[k] op(B)[k][n] + bias[n] (bias may be null) for one
/// contiguous row a of K floats, B read as stored: N rows of K (trans_b: a
/// dot product per output) or K rows of N (an axpy per k over a block of
/// outputs). Memory-bound, so baseline code: 16 partial sums keep the
/// reduction vectorizable without reassociating floats.
inline void gemv_row(bool trans_b, std::int64_t N, std::int64_t K, float alpha, const float* a, const float* b,
                     std::int64_t ldb, const float* bias, float* y, const thread_pool* pool) {
  constexpr int lanes = 16;
  if (trans_b) {
    parallel_for(pool, N, grain_for(2 * K), [&](std::int64_t n0, std::int64_t n1) {
      for (std::int64_t n = n0; n < n1; ++n) {
        const float* w = b + n * ldb;
        float acc[lanes] = {};
        std::int64_t k = 0;
        for (; k + lanes <= K; k += lanes)
          for (int j = 0; j < lanes; ++j) acc[j] += a[k + j] * w[k + j];
        float sum = 0.0f;
        for (; k < K; ++k) sum += a[k] * w[k];
        for (int j = 0; j < lanes; ++j) sum += acc[j];
        y[n] = alpha * sum + (bias ? bias[n] : 0.0f);
      }
    });
    return;
  }
  constexpr std::int64_t block = 1024;  // outputs kept in L1 while K rows of B stream past
  parallel_for(pool, (N + block - 1) / block, grain_for(2 * K * block), [&](std::int64_t q0, std::int64_t q1) {
    for (std::int64_t q = q0; q < q1; ++q) {
      const std::int64_t n0 = q * block, n1 = std::min(N, n0 + block);
      float* yb = y + n0;
      std::fill(yb, yb + (n1 - n0), 0.0f);
      for (std::int64_t k = 0; k < K; ++k) {
        const float ak = a[k];
        const float* w = b + k * ldb + n0;
        for (std::int64_t n = 0; n < n1 - n0; ++n) yb[n] += ak * w[n];
      }
      for (std::int64_t n = n0; n < n1; ++n) y[n] = alpha * y[n] + (bias ? bias[n] : 0.0f);
    }
  });
}

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
  bool gemv = false;  // M == 1 without a packed B: gemv_row
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
  g.gemv = !g.packed && g.M == 1 && (D == dtype::float32 || D == dtype::float16);
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
    if (g.gemv && beta == 0.0f && ep.kind != gemm_epilogue::bias_kind::per_row)  // always so when M == 1
      gemv_row(tb, N, K, at.alpha, ap, bp, b.dim(1), ep.bias, yp, c.pool());
    else if (g.packed)
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
    if (kernels::cpu::gemm_detail::single_row(p)) return state{};  // run's GEMV reads B in place
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
