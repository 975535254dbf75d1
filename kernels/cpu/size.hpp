// kernel<ops::Size, cpu>: writes the input's element count.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/size.hpp"

namespace onyx {

template <> struct kernel<ops::Size, cpu> {
  static constexpr std::array types{dtypes::all};
  template <ops::signature> static status run(const call<ops::Size>& c) {
    c.output(0).data<std::int64_t>()[0] = c.input(0).size();
    return ok();
  }
};

}  // namespace onyx
