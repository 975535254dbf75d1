// kernel<ops::Dropout, cpu>: inference, so output = data (a copy, or nothing
// when planned in place) and the optional mask is all true.
#pragma once

#include <algorithm>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/dropout.hpp"

namespace onyx {

template <> struct kernel<ops::Dropout, cpu> {
  static constexpr std::array types{ops::Dropout::T};
  template <ops::signature> static status run(const call<ops::Dropout>& c) {
    kernels::cpu::copy_elements(c.input(0), c.output(0));
    if (c.has_output(1)) {
      tensor& mask = c.output(1);
      std::fill_n(mask.data<bool>(), mask.size(), true);
    }
    return ok();
  }
};

}  // namespace onyx
