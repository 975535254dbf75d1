// kernels/cuda/block_reduce.cuh: sums and maxima over a thread block, for the
// kernels that give one block to each row (normalization.cu, attention.cu).
// Device code only. Blocks must be a whole number of warps, at most 1024
// threads, and every thread of the block must make the call.
#pragma once

#include <cmath>

#include "kernels/cuda/common.cuh"

namespace onyx::kernels::cuda {

/// Threads for a block that walks a row of `len`: one element per thread up
/// to 512, whole warps, at least one warp.
inline int row_threads(std::int64_t len) {
  const std::int64_t warps = (len + 31) / 32;
  return static_cast<int>(32 * (warps < 1 ? 1 : warps > 16 ? 16 : warps));
}

/// Grid for one block per row, the kernel striding over the rest.
inline unsigned row_blocks(std::int64_t rows) {
  return static_cast<unsigned>(rows < 1 ? 1 : rows > 0x7fffffff ? 0x7fffffff : rows);
}

struct sum_op {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};
struct max_op {
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <class Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

/// The reduction of every thread's `v` over the block, returned to all threads.
/// `identity` fills the lanes of the last warp that have no partial.
template <class Op>
__device__ float block_reduce(float v, Op op, float identity) {
  __shared__ float partial[33];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_reduce(v, op);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = lane < warps ? partial[lane] : identity;
    w = warp_reduce(w, op);
    if (lane == 0) partial[32] = w;
  }
  __syncthreads();
  const float r = partial[32];
  __syncthreads();  // every thread has read it before a next call writes `partial` again
  return r;
}

__device__ __forceinline__ float block_sum(float v) { return block_reduce(v, sum_op{}, 0.0f); }
__device__ __forceinline__ float block_max(float v) { return block_reduce(v, max_op{}, -INFINITY); }

}  // namespace onyx::kernels::cuda
