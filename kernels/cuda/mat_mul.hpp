// kernels/cuda/mat_mul.hpp: kernel<Op, cuda> for MatMul, Gemm and
// onyx.fused MatMul, all through the cuBLAS `gemm` launcher (launch.hpp).
//
// MatMul: the batch dims of Y are matched against A's and B's (stride 0
// where one is broadcast), dims of 1 dropped, and the innermost run of dims
// whose strides nest becomes one strided batched call; any dims outside that
// run (a broadcast that no single stride expresses, as A [2, 1, M, K] with
// B [3, K, N]) are looped over on the host. A B shared by every batch with
// A's batches contiguous (B a 2-D weight) folds the batches into M: one
// plain GEMM. One launch in the common cases, zero for empty outputs, one
// memset when K is 0.
// Gemm: one launch, plus one for C: the epilogue adds a row, column or
// scalar C (beta 1); any other C is broadcast into Y first (copy_strided)
// and scaled by the GEMM's beta.
// fused::MatMul: the folded GEMM, then one epilogue launch for bias and the
// function (none when there is neither).
// float32 and float16 (fused::MatMul: float32, as its op), float32
// accumulation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/cuda/common.hpp"
#include "onyx/core/message.hpp"
#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::kernels::cuda {

/// A MatMul as `gemm` calls: one strided batched call of `batch` M x K by
/// K x N products for each index of the outer dims (element offsets of each
/// outer dim in A, B and Y).
struct matmul_geometry {
  std::int64_t M = 0, N = 0, K = 0;
  std::int64_t batch = 1, stride_a = 0, stride_b = 0, stride_y = 0;
  int outer_rank = 0;
  std::int64_t outer_dims[max_rank] = {}, outer_a[max_rank] = {}, outer_b[max_rank] = {}, outer_y[max_rank] = {};
  bool empty = false;  // Y has no elements
};

/// The geometry of MatMul(A, B) with numpy's rules (1-D A is [1, K], 1-D B
/// is [K, 1]; batch dims broadcast).
inline result<matmul_geometry> matmul_geometry_of(const extents& a, const extents& b) {
  matmul_geometry g;
  const std::size_t ra = a.size(), rb = b.size();
  if (ra == 0 || rb == 0)
    return failure(errc::invalid_argument, "MatMul operands must have rank >= 1, got [", to_string(a), "] and [",
                   to_string(b), "]");
  g.K = a[ra - 1];
  g.M = ra >= 2 ? a[ra - 2] : 1;
  const std::int64_t k2 = rb >= 2 ? b[rb - 2] : b[0];
  g.N = rb >= 2 ? b[rb - 1] : 1;
  if (g.K != k2)
    return failure(errc::invalid_argument, "MatMul: A [", to_string(a), "] and B [", to_string(b),
                   "] disagree on the inner dimension");
  // Batch dims, right-aligned; element strides of each (0 where broadcast).
  const std::size_t ba = ra >= 2 ? ra - 2 : 0, bb = rb >= 2 ? rb - 2 : 0, r = std::max(ba, bb);
  if (r > static_cast<std::size_t>(max_rank))
    return failure(errc::unsupported, "MatMul on the GPU takes up to ", max_rank, " batch dims, got ", r);
  std::int64_t dims[max_rank] = {}, sa[max_rank] = {}, sb[max_rank] = {}, sy[max_rank] = {};
  std::int64_t next_a = g.M * g.K, next_b = g.K * g.N, next_y = g.M * g.N;
  for (std::size_t i = r; i-- > 0;) {
    const std::int64_t da = i + ba >= r ? a[i + ba - r] : 1, db = i + bb >= r ? b[i + bb - r] : 1;
    if (da != db && da != 1 && db != 1)
      return failure(errc::invalid_argument, "MatMul: the batch dims of A [", to_string(a), "] and B [",
                     to_string(b), "] do not broadcast");
    dims[i] = da == 1 ? db : da;
    sa[i] = da == 1 ? 0 : next_a;
    sb[i] = db == 1 ? 0 : next_b;
    sy[i] = next_y;
    next_a *= da, next_b *= db, next_y *= dims[i];
  }
  g.empty = g.M == 0 || g.N == 0;
  // Dims of 1 take no part; dims of 0 leave Y empty.
  int n = 0;
  for (std::size_t i = 0; i < r; ++i) {
    if (dims[i] == 0) g.empty = true;
    if (dims[i] == 1) continue;
    dims[n] = dims[i], sa[n] = sa[i], sb[n] = sb[i], sy[n] = sy[i];
    ++n;
  }
  if (g.empty) return g;
  // The innermost run of dims whose strides nest is one strided batch.
  int inner = n;
  if (n > 0) {
    --inner;
    g.batch = dims[inner], g.stride_a = sa[inner], g.stride_b = sb[inner], g.stride_y = sy[inner];
    while (inner > 0 && sa[inner - 1] == g.stride_a * g.batch && sb[inner - 1] == g.stride_b * g.batch &&
           sy[inner - 1] == g.stride_y * g.batch) {
      --inner;
      g.batch *= dims[inner];
    }
  }
  g.outer_rank = inner;
  for (int d = 0; d < inner; ++d)
    g.outer_dims[d] = dims[d], g.outer_a[d] = sa[d], g.outer_b[d] = sb[d], g.outer_y[d] = sy[d];
  // B shared by every batch and A's batches one after another: one taller A.
  if (g.outer_rank == 0 && g.batch > 1 && g.stride_b == 0 && g.stride_a == g.M * g.K) {
    g.M *= g.batch;
    g.batch = 1, g.stride_a = g.stride_b = g.stride_y = 0;
  }
  return g;
}

/// Y = alpha A B over `g`: one `gemm` call per index of the outer dims.
/// `y_bytes` is Y's size, cleared when K is 0 (the sum of no products).
inline status run_matmul(const matmul_geometry& g, dtype t, const void* a, const void* b, void* y,
                         std::size_t y_bytes, float alpha = 1) {
  if (g.empty) return ok();
  if (g.K == 0) return zero(y, y_bytes);
  const std::size_t width = storage_bytes(t, 1);
  gemm_args args;
  args.t = t;
  args.m = g.M, args.n = g.N, args.k = g.K;
  args.alpha = alpha, args.beta = 0;
  args.lda = g.K, args.ldb = g.N, args.ldc = g.N;
  args.batch = g.batch, args.stride_a = g.stride_a, args.stride_b = g.stride_b, args.stride_c = g.stride_y;
  std::int64_t outer = 1;
  for (int d = 0; d < g.outer_rank; ++d) outer *= g.outer_dims[d];
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t oa = 0, ob = 0, oy = 0;
    for (std::int64_t d = g.outer_rank - 1, rest = o; d >= 0; --d) {
      const std::int64_t i = rest % g.outer_dims[d];
      rest /= g.outer_dims[d];
      oa += i * g.outer_a[d], ob += i * g.outer_b[d], oy += i * g.outer_y[d];
    }
    args.a = static_cast<const std::byte*>(a) + static_cast<std::size_t>(oa) * width;
    args.b = static_cast<const std::byte*>(b) + static_cast<std::size_t>(ob) * width;
    args.c = static_cast<std::byte*>(y) + static_cast<std::size_t>(oy) * width;
    ONYX_TRY(gemm(args));
  }
  return ok();
}

}  // namespace onyx::kernels::cuda

namespace onyx {

namespace kcu = kernels::cuda;

/// MatMul: numpy's matmul, batched as matmul_geometry_of says.
template <>
struct kernel<ops::MatMul, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::MatMul>& c) {
    const tensor &a = c.input(0), &b = c.input(1);
    tensor& y = c.output(0);
    ONYX_ASSIGN(auto g, kcu::matmul_geometry_of(a.shape(), b.shape()));
    return kcu::run_matmul(g, S[0], a.raw(), b.raw(), y.raw(), y.bytes());
  }
};

/// onyx.fused MatMul: A [..., M, K] x B [K, N], then bias [N] and the
/// function in one epilogue pass.
template <>
struct kernel<ops::fused::MatMul, cuda> {
  static constexpr std::array types{dtypes::f32};
  template <ops::signature S>
  static status run(const call<ops::fused::MatMul>& c) {
    const tensor &a = c.input(0), &b = c.input(1);
    tensor& y = c.output(0);
    if (b.rank() != 2)
      return failure(errc::invalid_argument, "fused MatMul: B must be a matrix, got [", to_string(b.shape()), "]");
    ONYX_ASSIGN(auto g, kcu::matmul_geometry_of(a.shape(), b.shape()));
    if (g.empty) return ok();
    kcu::epilogue_args e;
    e.t = S[0];
    e.y = y.raw();
    e.cols = g.N;
    e.rows = y.size() / g.N;
    if (c.has_input(2)) {
      if (c.input(2).size() != g.N)
        return failure(errc::invalid_argument, "fused MatMul: bias holds ", c.input(2).size(), " values for ", g.N,
                       " columns");
      e.bias = c.input(2).raw();
      e.per_row = false;
      e.bias_period = g.N;
    }
    using fn = ops::fused::MatMul::function;
    const fn then = c.attrs().then;
    e.act = then == fn::gelu        ? kcu::activation::gelu
            : then == fn::gelu_tanh ? kcu::activation::gelu_tanh
                                    : kcu::activation::none;
    ONYX_TRY(kcu::run_matmul(g, S[0], a.raw(), b.raw(), y.raw(), y.bytes()));
    return kcu::epilogue(e);
  }
};

/// Gemm: Y = alpha op(A) op(B) + beta C. A row, column or single value C
/// with beta 1 is the epilogue's bias; any other C is copied (broadcast)
/// into Y first and scaled by the GEMM's beta.
template <>
struct kernel<ops::Gemm, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::Gemm>& c) {
    const auto& at = c.attrs();
    const tensor &a = c.input(0), &b = c.input(1);
    tensor& y = c.output(0);
    if (a.rank() != 2 || b.rank() != 2)
      return failure(errc::invalid_argument, "Gemm: A [", to_string(a.shape()), "] and B [", to_string(b.shape()),
                     "] must be matrices");
    const bool ta = at.transA != 0, tb = at.transB != 0;
    const std::int64_t M = a.dim(ta ? 1 : 0), K = a.dim(ta ? 0 : 1), N = b.dim(tb ? 0 : 1);
    if (b.dim(tb ? 1 : 0) != K)
      return failure(errc::invalid_argument, "Gemm: op(A) [", to_string(a.shape()), "] and op(B) [",
                     to_string(b.shape()), "] disagree on K (transA ", at.transA, ", transB ", at.transB, ")");
    if (y.rank() != 2 || y.dim(0) != M || y.dim(1) != N)
      return failure(errc::internal, "Gemm: the output is [", to_string(y.shape()), "], not [", M, ",", N, "]");
    if (M == 0 || N == 0) return ok();
    const float beta = c.has_input(2) ? at.beta : 0.0f;
    // C right-aligned to [M, N] as rows x cols, each 1 or full.
    std::int64_t c_rows = 1, c_cols = 1;
    if (beta != 0.0f) {
      const tensor& ct = c.input(2);
      if (ct.rank() > 2)
        return failure(errc::invalid_argument, "Gemm: C [", to_string(ct.shape()), "] has more than 2 dims");
      c_rows = ct.rank() == 2 ? ct.dim(0) : 1;
      c_cols = ct.rank() >= 1 ? ct.dim(ct.rank() - 1) : 1;
      if ((c_rows != 1 && c_rows != M) || (c_cols != 1 && c_cols != N))
        return failure(errc::invalid_argument, "Gemm: C [", to_string(ct.shape()), "] does not broadcast to [", M,
                       ",", N, "]");
    }
    // A bias the epilogue adds: C a row or one value (per column, period
    // c_cols: 1 or N), or a column (per row).
    const bool c_in_epilogue = beta == 1.0f && (c_rows == 1 || c_cols == 1);
    if (beta != 0.0f && !c_in_epilogue) {
      kcu::strided_view v;
      v.rank = 2;
      v.dims[0] = M, v.dims[1] = N;
      v.strides[0] = c_rows == 1 ? 0 : c_cols;
      v.strides[1] = c_cols == 1 ? 0 : 1;
      ONYX_TRY(kcu::copy_strided(static_cast<int>(storage_bytes(S[0], 1)), c.input(2).raw(), y.raw(), v));
    }
    if (K == 0) {  // the sum of no products: Y = beta C
      if (beta == 0.0f) return kcu::zero(y.raw(), y.bytes());
      if (beta != 1.0f)
        return failure(errc::unsupported, "Gemm on the GPU with K = 0 and beta ", std::to_string(beta),
                       " (only 0 and 1 are implemented)");
      if (c_in_epilogue) ONYX_TRY(kcu::zero(y.raw(), y.bytes()));
    } else {
      kcu::gemm_args g;
      g.t = S[0];
      g.trans_a = ta, g.trans_b = tb;
      g.m = M, g.n = N, g.k = K;
      g.alpha = at.alpha;
      g.beta = c_in_epilogue ? 0.0f : beta;
      g.a = a.raw(), g.lda = a.dim(1);
      g.b = b.raw(), g.ldb = b.dim(1);
      g.c = y.raw(), g.ldc = N;
      ONYX_TRY(kcu::gemm(g));
    }
    if (!c_in_epilogue) return ok();
    kcu::epilogue_args e;
    e.t = S[0];
    e.y = y.raw();
    e.rows = M, e.cols = N;
    e.bias = c.input(2).raw();
    e.per_row = c_rows != 1;  // a column [M, 1]; a row or one value otherwise
    e.bias_period = e.per_row ? M : c_cols;
    return kcu::epilogue(e);
  }
};

}  // namespace onyx
