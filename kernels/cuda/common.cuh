// kernels/cuda/common.cuh: what the .cu files of this folder share (device
// code only; never included by a host-compiled file).
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/launch.hpp"

namespace onyx::kernels::cuda {

/// A status from a CUDA runtime or cuBLAS result (runtime.cu).
status check(cudaError_t e, const char* what);
status check_blas(int e, const char* what);
/// The launch error of the last kernel launched from this thread, if any.
status launched(const char* what);
/// The calling thread's stream and cuBLAS handle (runtime.cu).
cudaStream_t stream();
cublasHandle_t blas();

/// Threads per block for the flat elementwise kernels, and their grid.
inline constexpr int block_threads = 256;
inline unsigned grid_for(std::int64_t n, int threads = block_threads) {
  std::int64_t blocks = (n + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks > 0x7fffffff ? 0x7fffffff : blocks);
}

/// Loads and stores in float for both element types.
__device__ __forceinline__ float load(const float* p, std::int64_t i) { return p[i]; }
__device__ __forceinline__ float load(const __half* p, std::int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ void store(float* p, std::int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void store(__half* p, std::int64_t i, float v) { p[i] = __float2half_rn(v); }

/// Calls f.template operator()<T>() with T = float or __half for `t`;
/// errc::unsupported for other types.
template <class F>
status dispatch_float(dtype t, const char* what, F&& f) {
  if (t == dtype::float32) return f.template operator()<float>();
  if (t == dtype::float16) return f.template operator()<__half>();
  return status(errc::unsupported, std::string(what) + ": no CUDA kernel for " + std::string(name(t)));
}

/// An epilogue's activation (launch.hpp's `activation`), in float.
__device__ __forceinline__ float activate(activation a, float x, float lo, float hi) {
  switch (a) {
    case activation::none: return x;
    case activation::relu: return x < 0.0f ? 0.0f : x;
    case activation::clip: return fminf(fmaxf(x, lo), hi);
    case activation::gelu: return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case activation::gelu_tanh: return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
  }
  return x;
}

/// A grid-stride loop over [0, n).
#define ONYX_CUDA_FOR(i, n)                                                                        \
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(blockDim.x) * gridDim.x)

}  // namespace onyx::kernels::cuda
