// kernel<ops::BitCast, cpu>: the bytes copied as they are.
#pragma once

#include <cstring>

#include "onyx/ops/bit_cast.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <> struct kernel<ops::BitCast, cpu> {
  static constexpr std::array types{ops::BitCast::T1};
  template <ops::signature> static status run(const call<ops::BitCast>& c) {
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    if (x.raw() != y.raw() && x.bytes() > 0) std::memcpy(y.raw(), x.raw(), x.bytes());
    return ok();
  }
};

}  // namespace onyx
