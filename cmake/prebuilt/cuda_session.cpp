// cmake/prebuilt/cuda_session.cpp: the CUDA session and its op table (every
// op; CUDA kernels first, the CPU's linked from onyx_runtime).
//
// The CUDA kernel tables are compiled one TU per kernel header
// (cmake/cuda.cmake); this TU only links them, as all_ops.cpp does the CPU's.
#include "kernels/cpu/all_kernels.hpp"
#include "kernels/cuda/all_kernels.hpp"
#include "onyx/all_ops.hpp"
#include "onyx/cuda_session.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/registry/prebuilt.hpp"

namespace onyx {

namespace {

status require_device() {
  if (cuda::available()) return ok();
  return failure(errc::unsupported, "no CUDA device can run this build: ", cuda::describe());
}

}  // namespace

op_table cuda_session::all_ops() { return prebuilt_registry<onyx::all_ops, backend_list<cuda, cpu>>::table(); }

bool cuda_session::available() { return cuda::available(); }

std::string cuda_session::device() { return cuda::describe(); }

#if defined(__cpp_exceptions)
cuda_session::cuda_session(const std::filesystem::path& path, const session_options& opt)
    : session_core(all_ops(), opt) {
  throw_if(require_device());
  throw_if(catch_allocation_failure([&] { return init_from<graph::onnx_loader>(path); },
                                    [&] { return path.filename().string(); }));
}
#endif

result<std::unique_ptr<session_core>> cuda_session::open(const std::filesystem::path& path,
                                                         const session_options& opt) {
  ONYX_TRY(require_device());
  return session_core::open<graph::onnx_loader>(path, all_ops(), opt);
}

result<std::unique_ptr<session_core>> cuda_session::open(graph::model m, const session_options& opt) {
  ONYX_TRY(require_device());
  return session_core::open(std::move(m), all_ops(), opt);
}

}  // namespace onyx
