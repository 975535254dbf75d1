// kernel<ops::Dropout, cpu>: inference, so output = data (a copy, or nothing
// when planned in place) and the optional mask is all true. A training_mode
// input that is true at run time with a non-zero ratio fails (errc::unsupported)
// rather than returning the identity as if nothing were dropped.
#pragma once

#include <algorithm>
#include <string>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/dropout.hpp"

namespace onyx {

template <> struct kernel<ops::Dropout, cpu> {
  static constexpr std::array types{ops::Dropout::T};
  template <ops::signature> static status run(const call<ops::Dropout>& c) {
    if (c.has_input(2) && c.input(2).size() == 1 && c.input(2).data<bool>()[0]) {
      double ratio = 0.5;  // the spec's default when the input is omitted
      if (c.has_input(1) && c.input(1).size() == 1) {
        const tensor& r = c.input(1);
        switch (r.type()) {
          case dtype::float64: ratio = r.data<double>()[0]; break;
          case dtype::float32: ratio = r.data<float>()[0]; break;
          case dtype::float16: ratio = to_float(r.data<float16_t>()[0]); break;
          default: ratio = to_float(r.data<bfloat16_t>()[0]); break;
        }
      }
      if (ratio != 0)
        return status(errc::unsupported,
                      "training_mode = true with ratio " + std::to_string(ratio) + " (onyx runs inference only)");
    }
    kernels::cpu::copy_elements(c.input(0), c.output(0));
    if (c.has_output(1)) {
      tensor& mask = c.output(1);
      std::fill_n(mask.data<bool>(), mask.size(), true);
    }
    return ok();
  }
};

}  // namespace onyx
