// kernels/cuda/pool.hpp: kernel<Op, cuda> for MaxPool, AveragePool,
// GlobalAveragePool and GlobalMaxPool. float32 and float16 (computed in
// float). Windowed pools take 1 to 3 spatial axes with auto_pad, pads,
// strides, dilations, ceil_mode and count_include_pad as the CPU kernel
// (kernels/cpu/pool.hpp); one launch each (pool.cu). MaxPool's Indices output
// has no CUDA kernel: a node that asks for it runs on the CPU (`accepts`).
#pragma once

#include <span>

#include "kernels/cuda/common.hpp"
#include "kernels/cuda/conv_launch.hpp"
#include "onyx/core/message.hpp"
#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/global_max_pool.hpp"
#include "onyx/ops/max_pool.hpp"

namespace onyx {

namespace kernels::cuda {

/// What `plan` fixes per input shape: the window and the planes (N x C).
struct pool_plan {
  spatial_window win;
  std::int64_t planes = 0;
};

inline result<planned<pool_plan>> plan_pool(const ops::detail::pool_attributes& a, const plan_info_base& p) {
  planned<pool_plan> r;
  const extents x = p.input_shape(0);
  if (x.size() < 3) return failure(errc::invalid_argument, "pooling needs X of rank >= 3, got ", to_string(x));
  ONYX_ASSIGN(auto win, ops::detail::pool_window(a, x.size() - 2));
  ONYX_ASSIGN(auto axes, ops::detail::window_geometry(win, std::span(x).subspan(2)));
  ONYX_ASSIGN(r.plan.win, spatial_window_of(axes));
  r.plan.planes = x[0] * x[1];
  return r;
}

/// Global pooling over every spatial position of each plane.
inline status run_global_pool(const kernel_call& c, pool_fn f, dtype t) {
  const tensor& x = c.input(0);
  if (x.rank() < 3)
    return failure(errc::invalid_argument, "global pooling needs X of rank >= 3, got ", to_string(x.shape()));
  std::int64_t size = 1;
  for (std::size_t d = 2; d < x.rank(); ++d) size *= x.dim(d);
  return global_pool(f, t, x.raw(), c.output(0).raw(), x.dim(0) * x.dim(1), size);
}

}  // namespace kernels::cuda

namespace kcu = kernels::cuda;

template <>
struct kernel<ops::MaxPool, cuda> {
  static constexpr std::array types{kcu::floats};
  /// Y only: a node that wants the Indices output runs on the CPU.
  static bool accepts(const prepare_info<ops::MaxPool>& p) { return !p.wants_output(1); }
  template <ops::signature S>
  static result<planned<kcu::pool_plan>> plan(const plan_info<ops::MaxPool>& p) {
    return kcu::plan_pool(p.attrs(), p);
  }
  template <ops::signature S>
  static status run(const call<ops::MaxPool>& c) {
    if (c.has_output(1))
      return status(errc::unsupported,
                    "MaxPool's Indices output (output 1) has no CUDA kernel; only Y runs on the GPU");
    const kcu::pool_plan& pp = c.plan<kcu::pool_plan>();
    return kcu::pool(kcu::pool_fn::max, S[0], c.input(0).raw(), c.output(0).raw(), pp.planes, pp.win, false);
  }
};

template <>
struct kernel<ops::AveragePool, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static result<planned<kcu::pool_plan>> plan(const plan_info<ops::AveragePool>& p) {
    return kcu::plan_pool(p.attrs(), p);
  }
  template <ops::signature S>
  static status run(const call<ops::AveragePool>& c) {
    const kcu::pool_plan& pp = c.plan<kcu::pool_plan>();
    return kcu::pool(kcu::pool_fn::average, S[0], c.input(0).raw(), c.output(0).raw(), pp.planes, pp.win,
                     c.attrs().count_include_pad != 0);
  }
};

template <>
struct kernel<ops::GlobalAveragePool, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::GlobalAveragePool>& c) {
    return kcu::run_global_pool(c, kcu::pool_fn::average, S[0]);
  }
};

template <>
struct kernel<ops::GlobalMaxPool, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::GlobalMaxPool>& c) {
    return kcu::run_global_pool(c, kcu::pool_fn::max, S[0]);
  }
};

}  // namespace onyx
