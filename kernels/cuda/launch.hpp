// kernels/cuda/launch.hpp: the launchers the CUDA kernel structs call.
//
// Plain C++ declarations (no CUDA header): the host compiler sees these, the
// .cu files of this folder define them. Every launcher queues its work on the
// calling thread's stream (backend.hpp) and returns at once; its status
// reports launch errors (bad configuration, no kernel image for this GPU),
// not faults found later while the kernel runs, which surface at the next
// copy to the host. Pointers are device pointers unless named `host_`.
// Element types: float32 and float16 (`dtype` picks), unless said otherwise.
#pragma once

#include <cstdint>

#include "onyx/core/dtype.hpp"
#include "onyx/core/status.hpp"

namespace onyx::kernels::cuda {

/// Launches a trivial kernel and waits: whether this build's code runs on the device.
status probe();

/// Loads cuBLAS (runtime.cu), as the first matrix product does: libcublas is
/// opened with dlopen then, never at program start, so a program built with
/// this backend that runs on the CPU does not map it. Needs no GPU; an error
/// names the library and why it could not be loaded or lacks an entry point.
status load_cublas();

// ---------------------------------------------------------------------------
// Elementwise (elementwise.cu)

enum class unary_fn : std::uint8_t {
  identity, relu, sigmoid, tanh, erf, exp, log, sqrt, neg, abs, reciprocal, floor, ceil, round, sin, cos,
  gelu,          // x * Phi(x), erf form
  gelu_tanh,     // the tanh approximation
  leaky_relu,    // alpha
  elu,           // alpha
  clip,          // alpha = min, beta = max
  hard_sigmoid,  // max(0, min(1, alpha * x + beta))
  hard_swish,    // x * max(0, min(1, x / 6 + 1 / 2))
  softplus, silu, sign, not_
};

/// y[i] = f(x[i]) for `n` elements.
status unary(unary_fn f, dtype t, const void* x, void* y, std::int64_t n, float alpha = 0, float beta = 0);

inline constexpr int max_rank = 8;

/// An output of `rank` dims (`dims`, outermost first) read from inputs with
/// element strides `a` and `b` per output dim (0 where an input is broadcast).
struct broadcast_shape {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t a[max_rank] = {};
  std::int64_t b[max_rank] = {};
};

enum class binary_fn : std::uint8_t { add, sub, mul, div, pow, max, min, prelu /* a < 0 ? a * b : a */ };

/// y = f(a, b) over `s`. Types: float32, float16 (integer arithmetic is the CPU's: shapes).
status binary(binary_fn f, dtype t, const void* a, const void* b, void* y, const broadcast_shape& s);

/// y[i] = x[offset + sum(idx_d * strides[d])] for every index of `dims`,
/// with elements `width` bytes wide (1, 2, 4 or 8): Transpose, Slice,
/// Expand (stride 0), and any other strided copy. A stride may be negative.
struct strided_view {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t strides[max_rank] = {};
  std::int64_t offset = 0;
};
status copy_strided(int width, const void* x, void* y, const strided_view& s);

/// Device-to-device copy of `bytes`.
status copy(const void* x, void* y, std::size_t bytes);
/// `rows` rows of `row_bytes`, with the given pitches (Concat's pieces).
status copy_2d(const void* x, std::size_t x_pitch, void* y, std::size_t y_pitch, std::size_t row_bytes,
               std::size_t rows);
/// Host -> device copy of `bytes` on the stream; `host` may change once it returns.
status upload(const void* host, void* y, std::size_t bytes);
/// Sets `bytes` to zero.
status zero(void* y, std::size_t bytes);

/// y = cast(x): from float32, float16, int32, int64 or bool to float32 or float16.
status cast(dtype from, dtype to, const void* x, void* y, std::int64_t n);

/// y[o, j, i] = x[o, idx[j], i] with `outer` x `n` x `inner` elements of
/// `width` bytes; idx holds `n` int64 indices already in [0, axis).
status gather(int width, const void* x, const std::int64_t* idx, void* y, std::int64_t outer, std::int64_t axis,
              std::int64_t n, std::int64_t inner);

// ---------------------------------------------------------------------------
// Matrix products (blas.cu)

/// Row-major C = alpha * op(A) op(B) + beta * C for `batch` products whose
/// operands are `stride_*` elements apart (0: shared), through cuBLAS with
/// float32 accumulation (float16 inputs on tensor cores). op(A) is M x K,
/// op(B) K x N; lda/ldb/ldc are row pitches in elements.
struct gemm_args {
  dtype t = dtype::float32;
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  float alpha = 1, beta = 0;
  const void* a = nullptr;
  std::int64_t lda = 0;
  const void* b = nullptr;
  std::int64_t ldb = 0;
  void* c = nullptr;
  std::int64_t ldc = 0;
  std::int64_t batch = 1, stride_a = 0, stride_b = 0, stride_c = 0;
};
status gemm(const gemm_args& g);

enum class activation : std::uint8_t { none, relu, clip, gelu, gelu_tanh };

/// In place over y, `rows` x `cols` (row-major):
///   y[r, c] = act(y[r, c] + bias[(per_row ? r : c) % bias_period] + residual[r, c])
/// where bias and residual may be null, and clip bounds act to [lo, hi].
/// Conv output [N, M, HW] is rows = N * M, cols = HW, per_row, period M.
struct epilogue_args {
  dtype t = dtype::float32;
  void* y = nullptr;
  std::int64_t rows = 0, cols = 0;
  const void* bias = nullptr;
  bool per_row = false;
  std::int64_t bias_period = 0;
  const void* residual = nullptr;
  activation act = activation::none;
  float lo = 0, hi = 0;
};
status epilogue(const epilogue_args& e);

}  // namespace onyx::kernels::cuda
