// kernel<ops::BitShift, cpu>: z = x << y or x >> y with broadcasting; shifts
// of the bit width or more give 0 (C++ leaves them undefined). uint8..uint64.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/bit_shift.hpp"

namespace onyx {

namespace kernels::cpu {
template <bool Left> struct bit_shift_fn {
  template <class X> X operator()(X x, X y) const {
    constexpr X bits = 8 * sizeof(X);
    if (y >= bits) return 0;
    return static_cast<X>(Left ? x << y : x >> y);
  }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::BitShift, cpu> {
  static constexpr std::array types{ops::BitShift::T};
  template <ops::signature S> static status run(const call<ops::BitShift>& c) {
    using T = storage_t<S[0]>;
    using namespace kernels::cpu;
    if (c.attrs().direction == "LEFT")
      return broadcast_binary<T, T, T>(c.input(0), c.input(1), c.output(0), bit_shift_fn<true>{}, c.pool());
    return broadcast_binary<T, T, T>(c.input(0), c.input(1), c.output(0), bit_shift_fn<false>{}, c.pool());
  }
};

}  // namespace onyx
