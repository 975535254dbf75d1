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
/// The calling thread's stream (runtime.cu).
cudaStream_t stream();

/// The cuBLAS entry points this backend calls, from libcublas loaded at the
/// first matrix product (load_cublas, runtime.cu). cublas_v2.h's names are
/// macros for the _v2 symbols: decltype takes the type of the real function.
/// The two GEMMs are overloaded in C++ (a cudaDataType compute type too): the
/// exported ones take a cublasComputeType_t.
struct cublas_api {
  using gemm_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                        const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                        const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  using gemm_strided_batched_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                        int, const void*, const void*, cudaDataType, int, long long,
                                                        const void*, cudaDataType, int, long long, const void*, void*,
                                                        cudaDataType, int, long long, int, cublasComputeType_t,
                                                        cublasGemmAlgo_t);
  decltype(&cublasCreate) create;
  decltype(&cublasDestroy) destroy;
  decltype(&cublasSetStream) set_stream;
  decltype(&cublasSetWorkspace) set_workspace;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasGetStatusString) status_string;
  gemm_ex_fn gemm_ex;
  gemm_strided_batched_ex_fn gemm_strided_batched_ex;
};
/// The calling thread's cuBLAS handle and the API to call it with, created
/// at its first use; an error says why there is none.
status blas(cublasHandle_t& handle, const cublas_api*& api);

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
