// kernel<ops::Pow, cpu>: z = x ^ y with broadcasting, keyed by (T, T1).
// Integer ^ integer is exact by repeated squaring (wrapping like the
// integer type); other pairs use std::pow in X's float type (float for
// float32/half bases, so powf; double otherwise).
#pragma once

#include <cmath>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/pow.hpp"

namespace onyx {

namespace kernels::cpu {
struct power_fn {
  template <class X, class Y> X operator()(X x, Y y) const {
    if constexpr (std::is_integral_v<X> && std::is_integral_v<Y>) {
      if constexpr (std::is_signed_v<Y>)
        if (y < 0) return x == 1 ? X(1) : x == -1 ? (y % 2 ? X(-1) : X(1)) : X(0);
      using U = std::make_unsigned_t<X>;  // wraps instead of signed overflow
      U result = 1, base = static_cast<U>(x);
      for (auto e = static_cast<std::uint64_t>(y); e; e >>= 1) {
        if (e & 1) result = static_cast<U>(result * base);
        base = static_cast<U>(base * base);
      }
      return static_cast<X>(result);
    } else if constexpr (std::is_integral_v<X>) {
      return static_cast<X>(std::pow(static_cast<double>(x), static_cast<double>(y)));
    } else {
      return static_cast<X>(std::pow(x, static_cast<X>(y)));
    }
  }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Pow, cpu> {
  static constexpr std::array types{ops::Pow::T, ops::Pow::T1};
  template <ops::signature S> static status run(const call<ops::Pow>& c) {
    using X = storage_t<S[0]>;
    using Y = storage_t<S[1]>;
    return kernels::cpu::broadcast_binary<X, X, Y>(c.input(0), c.input(1), c.output(0), kernels::cpu::power_fn{},
                                                   c.pool(), kernels::cpu::transcendental_grain);
  }
};

}  // namespace onyx
