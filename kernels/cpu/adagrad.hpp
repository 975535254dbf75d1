// kernel<ops::Adagrad, cpu>: the ADAGRAD step per element, in double.
#pragma once

#include <cmath>

#include "kernels/cpu/optimizer.hpp"
#include "onyx/ops/adagrad.hpp"

namespace onyx {

template <>
struct kernel<ops::Adagrad, cpu> {
  static constexpr std::array types{ops::Adagrad::T1, ops::Adagrad::T3};
  template <ops::signature S>
  static status run(const call<ops::Adagrad>& c) {
    using T = storage_t<S[1]>;
    ONYX_ASSIGN(auto s, kernels::cpu::optimizer_step_of<S[0]>(c, 3));
    const auto& a = c.attrs();
    const double r = s.R / (1.0 + static_cast<double>(s.T) * a.decay_factor);
    for (int i = 0; i < s.n; ++i) {
      const T* x = c.input(2 + i).template data<T>();
      const T* g = c.input(2 + s.n + i).template data<T>();
      const T* h = c.input(2 + 2 * s.n + i).template data<T>();
      T* x_new = c.output(i).template data<T>();
      T* h_new = c.output(s.n + i).template data<T>();
      parallel_for(c.pool(), c.input(2 + i).size(), kernels::cpu::elementwise_grain,
                   [&](std::int64_t b, std::int64_t e) {
                     for (std::int64_t j = b; j < e; ++j) {
                       const double gr = a.norm_coefficient * static_cast<double>(x[j]) + static_cast<double>(g[j]);
                       const double hn = static_cast<double>(h[j]) + gr * gr;
                       h_new[j] = static_cast<T>(hn);
                       x_new[j] = static_cast<T>(static_cast<double>(x[j]) - r * gr / (std::sqrt(hn) + a.epsilon));
                     }
                   });
    }
    return ok();
  }
};

}  // namespace onyx
