// kernel<ops::SwiGLU, cpu>: y = a / (1 + exp(-alpha * a)) * b, a and b of one
// shape. float32, float64; half types in float, with the gate rounded to the
// input type before the product, as the spec's Swish-then-Mul body does.
#pragma once

#include <cmath>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/swi_glu.hpp"

namespace onyx {

template <>
struct kernel<ops::SwiGLU, cpu> {
  static constexpr std::array types{ops::SwiGLU::T};
  template <ops::signature S>
  static status run(const call<ops::SwiGLU>& c) {
    using T = storage_t<S[0]>;
    using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const tensor &a = c.input(0), &b = c.input(1);
    if (a.shape() != b.shape())
      return status(errc::invalid_argument, "A " + sym_shape(a.shape()).str() + " and B " + sym_shape(b.shape()).str() +
                                                " must have the same shape");
    const A alpha = static_cast<A>(c.attrs().alpha);
    const T *ap = a.data<T>(), *bp = b.data<T>();
    T* yp = c.output(0).template data<T>();
    parallel_for(c.pool(), a.size(), kernels::cpu::transcendental_grain, [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t i = first; i < last; ++i) {
        const A x = static_cast<A>(load(ap[i]));
        const T gate = store<T>(x / (A{1} + std::exp(-alpha * x)));
        yp[i] = store<T>(static_cast<A>(load(gate)) * static_cast<A>(load(bp[i])));
      }
    });
    return ok();
  }
};

}  // namespace onyx
