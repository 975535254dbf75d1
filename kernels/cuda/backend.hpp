// kernels/cuda/backend.hpp: the CUDA backend policy, as the host compiler sees it.
//
//   using reg = onyx::registry<my_ops, onyx::backend_list<onyx::cuda, onyx::cpu>>;
//
// A node runs on the first listed backend with a kernel for its (op, type
// signature) that accepts it (kernel.hpp's `accepts`); everything else falls
// back to the CPU, with copies inserted (runtime/compiled_graph.hpp). Inputs
// a kernel reads on the host (`host_inputs`: shapes, axes, indices) stay
// there. Values on the GPU live in device memory: the run's planned arena,
// one block per run context grown by plan, and whatever the plan could not
// place, all from CUDA's stream-ordered pool (cudaMallocAsync, kept when
// freed); constants are copied once, at load. Copies between the host and
// the device go straight from and to the caller's (pageable) memory: staging
// them through page-locked buffers measured no faster (bench/README.md).
//
// A profiled run waits for each CUDA kernel (`synchronize`), so the profile
// shows device time per node; an unprofiled run never waits between them.
//
// Streams: kernels launch on the calling thread's default stream
// (cudaStreamPerThread), so concurrent runs from several threads do not
// serialize on one stream, and a copy back to the host waits for that
// thread's work only. cuBLAS handles (and their workspaces) are per thread too.
//
// This header includes no CUDA header: device code lives in the .cu files of
// this folder, and the kernel structs (kernels/cuda/<family>.hpp) call the
// launchers declared in launch.hpp, conv_launch.hpp and transformer_launch.hpp.
// Built where nvcc works (cmake/cuda.cmake, ONYX_CUDA=AUTO|ON|OFF); a build
// without it is unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"

namespace onyx {

/// The CUDA backend (NVIDIA GPUs, one device: index 0).
struct cuda {
  static constexpr std::string_view name = "cuda";
  static constexpr device_kind device = device_kind::cuda;
  /// Device -> host, waiting for the calling thread's stream.
  static status to_host(const tensor& from, tensor& to);
  /// Host -> device, on the calling thread's stream; returns when the copy is done.
  static status from_host(const tensor& from, tensor& to);
  /// `bytes` of device memory (cudaMalloc), freed with the last copy; null
  /// when the device has no room.
  static std::shared_ptr<void> allocate(std::size_t bytes);
  /// Whether a CUDA device and a driver that runs this build's code are present.
  static bool available();
  /// The device's name and compute capability ("NVIDIA H200 (sm_90)"), or
  /// why there is none.
  static std::string describe();
  /// Waits for the calling thread's work on the device.
  static status synchronize();
};

}  // namespace onyx
