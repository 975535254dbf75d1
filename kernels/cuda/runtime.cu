// kernels/cuda/runtime.cu: the CUDA backend's memory, copies, streams and
// cuBLAS handles, with libcublas loaded at its first use (kernels/cuda/backend.hpp,
// kernels/cuda/launch.hpp).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/common.cuh"
#include "kernels/cuda/launch.hpp"

namespace onyx {

namespace kernels::cuda {

status check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return ok();
  (void)cudaGetLastError();  // clear a sticky launch error for the next call
  return status(e == cudaErrorMemoryAllocation ? errc::resource_exhausted : errc::internal,
                std::string("CUDA: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

namespace {
#define ONYX_CUBLAS_NAME_(f) #f
// The name after macro expansion: cublas_v2.h makes cublasCreate cublasCreate_v2.
#define ONYX_CUBLAS_NAME(f) ONYX_CUBLAS_NAME_(f)

/// cuBLAS's soname for the toolkit this was built with (libcublas.so.13).
constexpr const char* cublas_library = "libcublas.so." ONYX_CUBLAS_NAME(CUBLAS_VER_MAJOR);

/// libcublas, opened once at the first use and kept for the process: a
/// program built with this backend that only runs on the CPU never maps it
/// (linked, it and cuBLASLt added ~148 MiB to every CPU run's peak RSS).
struct cublas_library_state {
  cublas_api api{};
  status error;
};

const cublas_library_state& cublas_loaded() {
  static const cublas_library_state loaded = [] {
    cublas_library_state l;
    void* lib = dlopen(cublas_library, RTLD_NOW | RTLD_LOCAL);
#if defined(ONYX_CUDA_LIBRARY_DIR)
    if (!lib) lib = dlopen((std::string(ONYX_CUDA_LIBRARY_DIR) + "/" + cublas_library).c_str(), RTLD_NOW | RTLD_LOCAL);
#endif
    if (!lib) {
      const char* why = dlerror();
      l.error = status(errc::unsupported, std::string("cuBLAS: cannot load ") + cublas_library + " (" +
                                              (why ? why : "no reason given") + ")");
      return l;
    }
    const char* missing = nullptr;
    const auto bind = [&](auto& fn, const char* symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, symbol));
      if (!fn && !missing) missing = symbol;
    };
    bind(l.api.create, ONYX_CUBLAS_NAME(cublasCreate));
    bind(l.api.destroy, ONYX_CUBLAS_NAME(cublasDestroy));
    bind(l.api.set_stream, ONYX_CUBLAS_NAME(cublasSetStream));
    bind(l.api.set_workspace, ONYX_CUBLAS_NAME(cublasSetWorkspace));
    bind(l.api.set_math_mode, ONYX_CUBLAS_NAME(cublasSetMathMode));
    bind(l.api.status_string, ONYX_CUBLAS_NAME(cublasGetStatusString));
    bind(l.api.gemm_ex, ONYX_CUBLAS_NAME(cublasGemmEx));
    bind(l.api.gemm_strided_batched_ex, ONYX_CUBLAS_NAME(cublasGemmStridedBatchedEx));
    if (missing)
      l.error = status(errc::unsupported, std::string("cuBLAS: ") + cublas_library + " has no entry point " + missing);
    return l;
  }();
  return loaded;
}
}  // namespace

status load_cublas() { return cublas_loaded().error; }

status check_blas(int e, const char* what) {
  if (e == CUBLAS_STATUS_SUCCESS) return ok();
  const auto& l = cublas_loaded();  // loaded: e came from one of its calls
  return status(e == CUBLAS_STATUS_ALLOC_FAILED ? errc::resource_exhausted : errc::internal,
                std::string("cuBLAS: ") + what + ": " +
                    (l.error.ok() ? std::string(l.api.status_string(static_cast<cublasStatus_t>(e)))
                                  : "error " + std::to_string(e)));
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
    if (h) cublas_loaded().api.destroy(h);
    if (workspace) cudaFree(workspace);
  }
};
}  // namespace

status blas(cublasHandle_t& h, const cublas_api*& api) {
  const auto& l = cublas_loaded();
  if (!l.error.ok()) return l.error;
  thread_local blas_handle handle;
  if (!handle.h) {
    if (const auto e = l.api.create(&handle.h); e != CUBLAS_STATUS_SUCCESS) {
      handle.h = nullptr;
      return check_blas(e, "creating a handle");
    }
    l.api.set_stream(handle.h, stream());
    if (cudaMalloc(&handle.workspace, blas_workspace_bytes) == cudaSuccess)
      l.api.set_workspace(handle.h, handle.workspace, blas_workspace_bytes);
    else
      (void)cudaGetLastError(), handle.workspace = nullptr;
    // Results equal plain float32 arithmetic's: no TF32 unless asked for.
    l.api.set_math_mode(handle.h, CUBLAS_DEFAULT_MATH);
  }
  h = handle.h;
  api = &l.api;
  return ok();
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
  const cudaError_t e =
      pooled ? cudaMallocAsync(&p, bytes ? bytes : 1, kcu::stream()) : cudaMalloc(&p, bytes ? bytes : 1);
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
