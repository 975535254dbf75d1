// kernel<ops::Identity, cpu>: a tensor is copied byte for byte (strings by
// element; nothing when the output was planned onto the input); a sequence,
// map or optional value is shared. One non-template body for every dtype.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/identity.hpp"

namespace onyx {

namespace kernels::cpu {
inline status identity(const kernel_call& c) {
  const value& in = c.input_value(0);
  if (in.is_tensor() && c.output_value(0).is_tensor() && c.output(0).shape() == in.as_tensor().shape())
    copy_elements(in.as_tensor(), c.output(0));
  else
    c.output_value(0) = in;
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Identity, cpu> {
  static constexpr std::array types{ops::Identity::V};
  template <ops::signature> static status run(const call<ops::Identity>& c) { return kernels::cpu::identity(c); }
};

}  // namespace onyx
