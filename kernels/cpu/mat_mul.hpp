// kernels/cpu/mat_mul.hpp: MatMul and Gemm on the CPU (Gemm's kernel lives
// here because kernels/cpu/sgemm.hpp is the SGEMM both use).
//
// float32 runs the packed SGEMM; a constant 2-D B is packed once at prepare
// time. MatMul with a shared B (B of rank <= 2) folds A's batch into M, one
// GEMM; with batched B, the batches are split over the pool when there are
// at least as many as threads (attention heads), else each GEMM uses the
// pool itself. The plan step computes the batch offsets once per shape and
// asks for the float32 copies of float16 operands as scratch. float16
// converts to float32 and back; float64 and the integer types use a plain
// i-k-j triple loop. fused::MatMul (A times a matrix, then bias and GELU) is
// the float32 shared-B path with the bias and the function in the epilogue.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::matmul_detail {

/// C (M x N, row stride ldc) = op(A) * op(B), accumulated in T (C is overwritten).
template <class T>
void plain_gemm(bool ta, bool tb, std::int64_t M, std::int64_t N, std::int64_t K, const T* A, std::int64_t lda,
                const T* B, std::int64_t ldb, T* C, std::int64_t ldc) {
  for (std::int64_t i = 0; i < M; ++i) {
    T* c = C + i * ldc;
    std::fill_n(c, N, T(0));
    for (std::int64_t k = 0; k < K; ++k) {
      const T a = ta ? A[k * lda + i] : A[i * lda + k];
      if (tb)
        for (std::int64_t j = 0; j < N; ++j) c[j] += a * B[j * ldb + k];
      else
        for (std::int64_t j = 0; j < N; ++j) c[j] += a * B[k * ldb + j];
    }
  }
}


/// What prepare keeps: B packed for the SGEMM when it is a constant matrix.
struct packed_state {
  packed_b b;
};

inline bool usable(const packed_b& p, std::int64_t K, std::int64_t N) {
  return !p.empty() && p.rows() == K && p.cols() == N && p.isa() == isa::active().isa;
}

// --- MatMul ------------------------------------------------------------------

struct matmul_shape {
  std::int64_t M = 1, N = 1, K = 1;
  std::int64_t batches = 1;
  std::vector<std::int64_t> a_off, b_off;  // per batch, in elements; empty when B is shared
  bool shared_b = false;
};

inline result<matmul_shape> matmul_geometry(const extents& a, const extents& b) {
  matmul_shape s;
  s.K = a.back();
  s.M = a.size() >= 2 ? a[a.size() - 2] : 1;
  s.N = b.size() >= 2 ? b.back() : 1;
  const std::int64_t kb = b.size() >= 2 ? b[b.size() - 2] : b[0];
  if (kb != s.K)
    return status(errc::invalid_argument, "MatMul operands " + to_string(a) + " and " + to_string(b) +
                                              " disagree on the inner dimension");
  if (b.size() <= 2) {
    s.shared_b = true;
    s.M = element_count(a) / std::max<std::int64_t>(s.K, 1);  // A's batches folded into M
    if (s.K == 0) s.M = a.size() >= 2 ? element_count(std::span(a).first(a.size() - 1)) : 1;
    return s;
  }
  const std::size_t ra = a.size() >= 2 ? a.size() - 2 : 0, rb = b.size() - 2, r = std::max(ra, rb);
  std::vector<std::int64_t> ob(r), sa(r, 0), sb(r, 0);
  std::int64_t stride_a = s.M * s.K, stride_b = s.K * s.N;
  for (std::size_t i = r; i-- > 0;) {
    const std::int64_t da = i + ra >= r ? a[i + ra - r] : 1, db = i + rb >= r ? b[i + rb - r] : 1;
    if (da != db && da != 1 && db != 1)
      return status(errc::invalid_argument, "MatMul batch dims of " + to_string(a) + " and " + to_string(b) +
                                                " do not broadcast");
    ob[i] = std::max(da, db);
    if (da == 0 || db == 0) ob[i] = 0;
    sa[i] = da == 1 ? 0 : stride_a;
    sb[i] = db == 1 ? 0 : stride_b;
    stride_a *= da;
    stride_b *= db;
  }
  s.batches = element_count(ob);
  for (std::int64_t q = 0; q < s.batches; ++q) {
    std::int64_t rem = q, oa = 0, obb = 0;
    for (std::size_t i = r; i-- > 0;) {
      const std::int64_t idx = rem % ob[i];
      rem /= ob[i];
      oa += idx * sa[i];
      obb += idx * sb[i];
    }
    s.a_off.push_back(oa);
    s.b_off.push_back(obb);
  }
  return s;
}

template <class T> status matmul_typed(const T* a, const T* b, T* y, const matmul_shape& s, const packed_b* packed,
                                       const thread_pool* pool) {
  const std::int64_t MN = s.M * s.N;
  if constexpr (std::is_same_v<T, float>) {
    if (s.shared_b) {
      if (packed) sgemm_packed(false, s.M, s.N, s.K, 1.0f, a, s.K, *packed, 0.0f, y, s.N, pool);
      else sgemm(false, false, s.M, s.N, s.K, 1.0f, a, s.K, b, s.N, 0.0f, y, s.N, pool);
      return ok();
    }
    const std::int64_t threads = pool ? pool->size() : 1;
    if (s.batches >= threads && threads > 1) {
      parallel_for(pool, s.batches, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t q = lo; q < hi; ++q)
          sgemm(false, false, s.M, s.N, s.K, 1.0f, a + s.a_off[q], s.K, b + s.b_off[q], s.N, 0.0f, y + q * MN, s.N,
                nullptr);
      });
    } else {
      for (std::int64_t q = 0; q < s.batches; ++q)
        sgemm(false, false, s.M, s.N, s.K, 1.0f, a + s.a_off[q], s.K, b + s.b_off[q], s.N, 0.0f, y + q * MN, s.N, pool);
    }
  } else {
    if (s.shared_b) {
      parallel_for(pool, s.M, grain_for(s.N * s.K),  // a row of Y: N dot products of K
                   [&](std::int64_t lo, std::int64_t hi) {
                     plain_gemm(false, false, hi - lo, s.N, s.K, a + lo * s.K, s.K, b, s.N, y + lo * s.N, s.N);
                   });
    } else {
      parallel_for(pool, s.batches, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t q = lo; q < hi; ++q)
          plain_gemm(false, false, s.M, s.N, s.K, a + s.a_off[q], s.K, b + s.b_off[q], s.N, y + q * MN, s.N);
      });
    }
  }
  return ok();
}

/// What `plan` fixes per shape: the geometry, whether the prepared B fits,
/// and the scratch offsets of the float32 copies (float16).
struct matmul_plan {
  matmul_shape s;
  bool packed = false;
  std::size_t a32 = 0, b32 = 0, y32 = 0;
};

template <dtype D>
result<planned<matmul_plan>> plan_matmul(const plan_info_base& p) {
  planned<matmul_plan> r;
  const extents a = p.input_shape(0), b = p.input_shape(1);
  ONYX_ASSIGN(r.plan.s, matmul_geometry(a, b));
  const matmul_shape& s = r.plan.s;
  if (p.state_ && s.shared_b && b.size() == 2) r.plan.packed = usable(p.state<packed_state>().b, s.K, s.N);
  if constexpr (D == dtype::float16) {
    scratch_layout layout;
    r.plan.a32 = layout.add<float>(element_count(a));
    r.plan.b32 = layout.add<float>(element_count(b));
    r.plan.y32 = layout.add<float>(s.batches * s.M * s.N);
    r.scratch_bytes = layout.bytes;
  }
  return r;
}

template <dtype D> status matmul(const kernel_call& c) {
  const matmul_plan& mp = c.plan<matmul_plan>();
  const tensor& a = c.input(0);
  const tensor& b = c.input(1);
  tensor& y = c.output(0);
  if (y.size() == 0) return ok();
  const packed_b* packed = mp.packed ? &c.state<packed_state>().b : nullptr;
  if constexpr (D == dtype::float16) {
    float* af = c.scratch_at<float>(mp.a32);
    float* bf = c.scratch_at<float>(mp.b32);
    float* yf = c.scratch_at<float>(mp.y32);
    onyx::widen(a, std::span<float>(af, static_cast<std::size_t>(a.size())));
    onyx::widen(b, std::span<float>(bf, static_cast<std::size_t>(b.size())));
    ONYX_TRY(matmul_typed<float>(af, bf, yf, mp.s, packed, c.pool()));
    onyx::narrow(std::span<const float>(yf, static_cast<std::size_t>(y.size())), y);
    return ok();
  } else {
    using T = storage_t<D>;
    return matmul_typed<T>(a.data<T>(), b.data<T>(), y.data<T>(), mp.s, packed, c.pool());
  }
}

template <dtype D> result<packed_state> prepare_b(const prepare_info_base& p, bool trans_b) {
  packed_state s;
  const tensor* b = p.constant(1);
  if constexpr (D == dtype::float32 || D == dtype::float16) {
    if (b && b->rank() == 2 && b->size() > 0) {
      const std::int64_t K = trans_b ? b->dim(1) : b->dim(0), N = trans_b ? b->dim(0) : b->dim(1);
      if constexpr (D == dtype::float32) {
        s.b = pack_b(trans_b, K, N, b->data<float>(), b->dim(1));
        p.consume_constant(1);  // the float32 paths read only the packed B (float16 widens B each run)
      } else {
        std::vector<float> bf(static_cast<std::size_t>(b->size()));
        onyx::widen(*b, std::span<float>(bf));
        s.b = pack_b(trans_b, K, N, bf.data(), b->dim(1));
      }
    }
  }
  return s;
}

}  // namespace onyx::kernels::cpu::matmul_detail

namespace onyx {

template <> struct kernel<ops::MatMul, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64 | dtypes::i32 | dtypes::i64 |
                                    dtypes::u32 | dtypes::u64};
  using state = kernels::cpu::matmul_detail::packed_state;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::MatMul>& p) {
    return kernels::cpu::matmul_detail::prepare_b<S[0]>(p, false);
  }
  template <ops::signature S>
  static result<planned<kernels::cpu::matmul_detail::matmul_plan>> plan(const plan_info<ops::MatMul>& p) {
    return kernels::cpu::matmul_detail::plan_matmul<S[0]>(p);
  }
  template <ops::signature S> static status run(const call<ops::MatMul>& c) {
    return kernels::cpu::matmul_detail::matmul<S[0]>(c);
  }
};

template <> struct kernel<ops::fused::MatMul, cpu> {
  static constexpr std::array types{dtypes::f32};
  using state = kernels::cpu::matmul_detail::packed_state;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::fused::MatMul>& p) {
    return kernels::cpu::matmul_detail::prepare_b<S[0]>(p, false);
  }
  template <ops::signature S>
  static result<planned<kernels::cpu::matmul_detail::matmul_plan>> plan(const plan_info<ops::fused::MatMul>& p) {
    return kernels::cpu::matmul_detail::plan_matmul<S[0]>(p);
  }
  template <ops::signature S> static status run(const call<ops::fused::MatMul>& c) {
    using namespace kernels::cpu;
    const auto& mp = c.plan<matmul_detail::matmul_plan>();
    const matmul_detail::matmul_shape& s = mp.s;
    tensor& y = c.output(0);
    if (y.size() == 0) return ok();
    gemm_epilogue ep;
    if (c.has_input(2)) {
      if (c.input(2).size() != s.N)
        return status(errc::invalid_argument, "bias holds " + std::to_string(c.input(2).size()) + " values for " +
                                                  std::to_string(s.N) + " columns");
      ep.bias = c.input(2).data<float>();
      ep.kind = gemm_epilogue::bias_kind::per_col;
    }
    using fn = ops::fused::MatMul::function;
    const fn then = c.attrs().then;
    ep.then = then == fn::gelu        ? gemm_epilogue::function::gelu
              : then == fn::gelu_tanh ? gemm_epilogue::function::gelu_tanh
                                      : gemm_epilogue::function::none;
    const float* a = c.input(0).data<float>();
    if (mp.packed)
      sgemm_packed(false, s.M, s.N, s.K, 1.0f, a, s.K, c.state<matmul_detail::packed_state>().b, 0.0f,
                   y.data<float>(), s.N, c.pool(), ep);
    else
      sgemm(false, false, s.M, s.N, s.K, 1.0f, a, s.K, c.input(1).data<float>(), s.N, 0.0f, y.data<float>(), s.N,
            c.pool(), ep);
    return ok();
  }
};

}  // namespace onyx
