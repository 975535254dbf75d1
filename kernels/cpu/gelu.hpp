// kernel<ops::Gelu, cpu>: y = x/2 * (1 + erf(x / sqrt 2)), or with
// approximate = "tanh", x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
// float32 runs the ISA micro-kernels isa::f32_gelu / f32_gelu_tanh (the ones
// a fused MatMul's epilogue applies). Other types call std::erf/std::tanh per
// element (half types in float).
#pragma once

#include <cmath>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/gelu.hpp"

namespace onyx {

namespace kernels::cpu {

inline constexpr double gelu_inv_sqrt2 = 0.70710678118654752440;
inline constexpr double gelu_sqrt_2_over_pi = 0.79788456080286535588;

template <bool Tanh> struct gelu_fn {
  template <class X> X operator()(X x) const {
    if constexpr (Tanh)
      return X(0.5) * x * (X(1) + std::tanh(X(gelu_sqrt_2_over_pi) * (x + X(0.044715) * x * x * x)));
    else
      return X(0.5) * x * (X(1) + std::erf(x * X(gelu_inv_sqrt2)));
  }
};

}  // namespace kernels::cpu

template <> struct kernel<ops::Gelu, cpu> {
  static constexpr std::array types{ops::Gelu::T};
  template <ops::signature S> static status run(const call<ops::Gelu>& c) {
    using T = storage_t<S[0]>;
    using namespace kernels::cpu;
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    const bool tanh = c.attrs().approximate == "tanh";
    if constexpr (std::is_same_v<T, float>) {
      const auto& table = isa::active();
      if (isa::f32_unary_fn fn = tanh ? table.f32_gelu_tanh : table.f32_gelu) {
        const float* xs = x.data<float>();
        float* ys = y.data<float>();
        parallel_for(c.pool(), x.size(), transcendental_grain,
                     [&](std::int64_t b, std::int64_t e) { fn(xs + b, ys + b, e - b); });
        return ok();
      }
    }
    if (tanh)
      map_unary(x.data<T>(), y.data<T>(), x.size(), gelu_fn<true>{}, c.pool(), transcendental_grain);
    else
      map_unary(x.data<T>(), y.data<T>(), x.size(), gelu_fn<false>{}, c.pool(), transcendental_grain);
    return ok();
  }
};

}  // namespace onyx
