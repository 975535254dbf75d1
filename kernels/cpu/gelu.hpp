// kernel<ops::Gelu, cpu>: y = x/2 * (1 + erf(x / sqrt 2)), or with
// approximate = "tanh", x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
// float32 runs in blocks of 256: the erf/tanh argument is written to a stack
// buffer, the ISA micro-kernel (isa::f32_erf / f32_tanh) maps it in place,
// and a last loop forms the product. Other types call std::erf/std::tanh
// per element (half types in float).
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

template <bool Tanh> void f32_gelu(const float* x, float* y, std::int64_t n, isa::f32_unary_fn fn) {
  constexpr std::int64_t block = 256;
  float t[block];
  for (std::int64_t b = 0; b < n; b += block) {
    const std::int64_t m = std::min(block, n - b);
    const float* xb = x + b;
    for (std::int64_t i = 0; i < m; ++i) {
      const float v = xb[i];
      t[i] = Tanh ? float(gelu_sqrt_2_over_pi) * (v + 0.044715f * v * v * v) : v * float(gelu_inv_sqrt2);
    }
    fn(t, t, m);
    for (std::int64_t i = 0; i < m; ++i) y[b + i] = 0.5f * xb[i] * (1.0f + t[i]);
  }
}

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
      if (isa::f32_unary_fn fn = tanh ? table.f32_tanh : table.f32_erf) {
        const float* xs = x.data<float>();
        float* ys = y.data<float>();
        parallel_for(c.pool(), x.size(), transcendental_grain, [&](std::int64_t b, std::int64_t e) {
          tanh ? f32_gelu<true>(xs + b, ys + b, e - b, fn) : f32_gelu<false>(xs + b, ys + b, e - b, fn);
        });
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
