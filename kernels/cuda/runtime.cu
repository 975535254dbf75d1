// kernels/cuda/runtime.cu: the CUDA backend's memory, copies, streams and
// cuBLAS handles (kernels/cuda/backend.hpp, kernels/cuda/launch.hpp).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/launch.hpp"

namespace onyx {

namespace kernels::cuda {

status check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return ok();
  (void)cudaGetLastError();  // clear a sticky launch error for the next call
  return status(e == cudaErrorMemoryAllocation ? errc::resource_exhausted : errc::internal,
                std::string("CUDA: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

status check_blas(int e, const char* what) {
  if (e == CUBLAS_STATUS_SUCCESS) return ok();
  return status(e == CUBLAS_STATUS_ALLOC_FAILED ? errc::resource_exhausted : errc::internal,
                std::string("cuBLAS: ") + what + ": " + cublasGetStatusString(static_cast<cublasStatus_t>(e)));
}

status launched(const char* what) { return check(cudaGetLastError(), what); }

cudaStream_t stream() { return cudaStreamPerThread; }

namespace {
struct blas_handle {
  cublasHandle_t h = nullptr;
  ~blas_handle() {
    if (h) cublasDestroy(h);
  }
};
}  // namespace

cublasHandle_t blas() {
  thread_local blas_handle handle;
  if (!handle.h) {
    if (cublasCreate(&handle.h) != CUBLAS_STATUS_SUCCESS) return nullptr;
    cublasSetStream(handle.h, stream());
    // Results equal plain float32 arithmetic's: no TF32 unless asked for.
    cublasSetMathMode(handle.h, CUBLAS_DEFAULT_MATH);
  }
  return handle.h;
}

}  // namespace kernels::cuda

namespace kcu = kernels::cuda;

status cuda::to_host(const tensor& from, tensor& to) {
  if (from.where().kind != device_kind::cuda || to.where().kind != device_kind::cpu)
    return status(errc::internal, "cuda::to_host between the wrong devices");
  if (from.bytes() != to.bytes()) return status(errc::internal, "cuda::to_host between tensors of different sizes");
  if (from.bytes() == 0) return ok();
  ONYX_TRY(kcu::check(cudaMemcpyAsync(to.raw(), from.raw(), from.bytes(), cudaMemcpyDeviceToHost, kcu::stream()),
                      "copying to the host"));
  return kcu::check(cudaStreamSynchronize(kcu::stream()), "running the graph on the GPU");
}

status cuda::from_host(const tensor& from, tensor& to) {
  if (from.where().kind != device_kind::cpu || to.where().kind != device_kind::cuda)
    return status(errc::internal, "cuda::from_host between the wrong devices");
  if (from.bytes() != to.bytes()) return status(errc::internal, "cuda::from_host between tensors of different sizes");
  if (from.bytes() == 0) return ok();
  // From pageable memory the call returns once the bytes are staged, so the
  // host tensor may change or go right after.
  return kcu::check(cudaMemcpyAsync(to.raw(), from.raw(), from.bytes(), cudaMemcpyHostToDevice, kcu::stream()),
                    "copying to the GPU");
}

std::shared_ptr<void> cuda::allocate(std::size_t bytes) {
  void* p = nullptr;
  if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return std::shared_ptr<void>(p, [](void* q) { cudaFree(q); });
}

bool cuda::available() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    return false;
  }
  // The code of this build must run there (a kernel image for its architecture).
  return kcu::probe().ok();
}

std::string cuda::describe() {
  int n = 0;
  if (cudaError_t e = cudaGetDeviceCount(&n); e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(e);
  }
  if (n == 0) return "no CUDA device";
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return "a CUDA device whose properties cannot be read";
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.totalGlobalMem >> 20) + " MiB)";
}

status cuda::synchronize() { return kcu::check(cudaStreamSynchronize(kcu::stream()), "running on the GPU"); }

}  // namespace onyx
