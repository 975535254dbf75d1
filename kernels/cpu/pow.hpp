// kernel<ops::Pow, cpu>: z = x ^ y with broadcasting, keyed by (T, T1).
// Integer ^ integer is exact by repeated squaring (wrapping like the
// integer type); other pairs use std::pow in X's float type (float for
// float32/half bases, so powf; double otherwise). A float base raised to a
// one-element exponent of 2 or 3 (decomposed LayerNorm's variance, GELU's
// tanh form) multiplies instead, at a fraction of the cost: x * x is the
// correctly rounded square (glibc's powf may be up to 0.8 ulp from it);
// x * x * x rounds twice, so it may differ in the last bit.
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
    if constexpr ((std::is_same_v<X, float> || std::is_same_v<X, double>) && std::is_arithmetic_v<Y>) {
      if (c.input(1).size() == 1) {
        const double y = static_cast<double>(c.input(1).template data<Y>()[0]);
        auto with = [&](auto f) {
          return kernels::cpu::broadcast_binary<X, X, Y>(c.input(0), c.input(1), c.output(0), f, c.pool(),
                                                         kernels::cpu::elementwise_grain);
        };
        if (y == 2) return with([](X x, Y) { return x * x; });
        if (y == 3) return with([](X x, Y) { return x * x * x; });
      }
    }
    return kernels::cpu::broadcast_binary<X, X, Y>(c.input(0), c.input(1), c.output(0), kernels::cpu::power_fn{},
                                                   c.pool(), kernels::cpu::transcendental_grain);
  }
};

}  // namespace onyx
