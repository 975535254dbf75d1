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
/// cuBLAS's workspace per handle: split-K and other algorithms use it. Given
/// once, it is never allocated (and freed, which waits for the device) per call.
constexpr std::size_t blas_workspace_bytes = std::size_t{32} << 20;

struct blas_handle {
  cublasHandle_t h = nullptr;
  void* workspace = nullptr;
  ~blas_handle() {
    if (h) cublasDestroy(h);
    if (workspace) cudaFree(workspace);
  }
};
}  // namespace

cublasHandle_t blas() {
  thread_local blas_handle handle;
  if (!handle.h) {
    if (cublasCreate(&handle.h) != CUBLAS_STATUS_SUCCESS) return nullptr;
    cublasSetStream(handle.h, stream());
    if (cudaMalloc(&handle.workspace, blas_workspace_bytes) == cudaSuccess)
      cublasSetWorkspace(handle.h, handle.workspace, blas_workspace_bytes);
    else
      (void)cudaGetLastError(), handle.workspace = nullptr;
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
  ONYX_TRY(kcu::check(cudaMemcpyAsync(to.raw(), from.raw(), from.bytes(), cudaMemcpyHostToDevice, kcu::stream()),
                      "copying to the GPU"));
  // Waits for the copy: a constant copied at load is read by runs on other
  // threads' streams, which would not wait for this one. (A copy from
  // pageable memory waits for the stream's earlier work anyway.)
  return kcu::check(cudaStreamSynchronize(kcu::stream()), "copying to the GPU");
}

namespace {
/// The device's stream-ordered pool (cudaMallocAsync), told to keep what is
/// freed: a value the plan could not place (its shape known only at run time)
/// is then allocated and freed each run without a cudaMalloc or a cudaFree,
/// which waits for the whole device.
bool keep_freed_memory() {
  cudaMemPool_t pool = nullptr;
  if (cudaDeviceGetDefaultMemPool(&pool, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  std::uint64_t keep = UINT64_MAX;
  (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  (void)cudaGetLastError();
  return true;
}
}  // namespace

std::shared_ptr<void> cuda::allocate(std::size_t bytes) {
  static const bool pooled = keep_freed_memory();
  void* p = nullptr;
  // Ordered on the calling thread's stream, as is the free: memory a run
  // frees is reused by its later kernels, never under a kernel still running.
  const cudaError_t e = pooled ? cudaMallocAsync(&p, bytes ? bytes : 1, kcu::stream()) : cudaMalloc(&p, bytes ? bytes : 1);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  if (!pooled) return std::shared_ptr<void>(p, [](void* q) { cudaFree(q); });
  return std::shared_ptr<void>(p, [](void* q) { cudaFreeAsync(q, kcu::stream()); });
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
