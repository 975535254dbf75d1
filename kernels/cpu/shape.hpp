// kernel<ops::Shape, cpu>: writes the input's dims [start, end) as int64.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/shape.hpp"

namespace onyx {

template <> struct kernel<ops::Shape, cpu> {
  static constexpr std::array types{dtypes::all};
  template <ops::signature> static status run(const call<ops::Shape>& c) {
    const extents& s = c.input(0).shape();
    auto [b, e] = ops::Shape::range(c.attrs(), static_cast<std::int64_t>(s.size()));
    std::copy(s.begin() + b, s.begin() + e, c.output(0).data<std::int64_t>());
    return ok();
  }
};

}  // namespace onyx
