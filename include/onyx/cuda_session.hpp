// onyx/cuda_session.hpp: the default session on an NVIDIA GPU, every op onyx
// has, with the CPU as fallback.
//
//   #include <onyx/cuda_session.hpp>
//   if (onyx::cuda_session::available()) {
//     onyx::cuda_session s{"model.onnx"};
//     auto outs = s.run({{"input", x}});   // inputs and outputs on the host
//     for (auto& n : s.nodes()) ...        // n.backend: "cuda", "cpu"; copies are "onyx.Copy"
//   }
//
// Each node runs on the GPU when the CUDA build has a kernel for its (op, type
// signature), else on the CPU; copies are inserted where values cross
// (runtime/compiled_graph.hpp). Compiled into the onyx_cuda library
// (-DONYX_CUDA=ON, cmake/cuda.cmake). For a trimmed build, list the backends
// yourself: basic_session<registry<my_ops, backend_list<cuda, cpu>>>, with
// kernels/cuda/all_kernels.hpp and the .cu files of kernels/cuda/.
//
// float16 models: pass session_options{.compute_float16_in_float32 = false}
// to keep float16 on the GPU's tensor cores.
#pragma once

#include "onyx/runtime/session.hpp"

namespace onyx {

class cuda_session : public session_core {
 public:
#if defined(__cpp_exceptions)
  /// Loads and prepares `path`; throws onyx::error (also when no GPU can run it).
  explicit cuda_session(const std::filesystem::path& path, const session_options& opt = {});
#endif
  /// Status-returning form; errc::unsupported when no CUDA device can run this build.
  static result<std::unique_ptr<session_core>> open(const std::filesystem::path& path,
                                                    const session_options& opt = {});
  static result<std::unique_ptr<session_core>> open(graph::model m, const session_options& opt = {});
  /// The table of every op, with the CUDA kernels first and the CPU's after.
  static op_table all_ops();
  /// Whether a CUDA device that runs this build's code is present.
  static bool available();
  /// The device ("NVIDIA H200 (sm_90, 143771 MiB)"), or why there is none.
  static std::string device();
};

}  // namespace onyx
