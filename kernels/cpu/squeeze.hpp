// kernel<ops::Squeeze, cpu>: the output is the input's bytes under the shape
// inference gave it; a copy unless the memory planner placed both in one
// buffer (it may, where this node is the input's last reader).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/squeeze.hpp"

namespace onyx {

template <> struct kernel<ops::Squeeze, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S>
  static result<planned<kernels::cpu::same_bytes_plan>> plan(const plan_info<ops::Squeeze>&) {
    return kernels::cpu::output_in_input_buffer();
  }
  template <ops::signature S> static status run(const call<ops::Squeeze>& c) {
    return kernels::cpu::copy_input<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
