// kernel<ops::Mod, cpu>: c = a mod b with broadcasting; the fmod attribute
// picks the functor once per call. Integers: fmod = 1 truncates (C's %),
// fmod = 0 floors (the result takes the divisor's sign); x mod 0 = 0.
// Floats: std::fmod. Every numeric type; half types in float.
#pragma once

#include <cmath>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/mod.hpp"

namespace onyx {

namespace kernels::cpu {
template <bool Floor> struct modulo_fn {
  template <class X> X operator()(X a, X b) const {
    if constexpr (std::is_floating_point_v<X>) {
      return std::fmod(a, b);
    } else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<X>) {
        if (b == -1) return 0;  // INT_MIN % -1 traps
        X r = static_cast<X>(a % b);
        if (Floor && r != 0 && ((r < 0) != (b < 0))) r = static_cast<X>(r + b);
        return r;
      } else {
        return static_cast<X>(a % b);
      }
    }
  }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Mod, cpu> {
  static constexpr std::array types{ops::Mod::T};
  template <ops::signature S> static status run(const call<ops::Mod>& c) {
    using T = storage_t<S[0]>;
    using namespace kernels::cpu;
    if (c.attrs().fmod) return broadcast_binary<T, T, T>(c.input(0), c.input(1), c.output(0), modulo_fn<false>{}, c.pool());
    return broadcast_binary<T, T, T>(c.input(0), c.input(1), c.output(0), modulo_fn<true>{}, c.pool());
  }
};

}  // namespace onyx
