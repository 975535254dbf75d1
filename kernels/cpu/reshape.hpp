// kernel<ops::Reshape, cpu>: the output is the input's bytes under the shape
// inference gave it; a copy unless the executor placed both in one buffer.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/reshape.hpp"

namespace onyx {

template <> struct kernel<ops::Reshape, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Reshape>& c) {
    return kernels::cpu::copy_input<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
