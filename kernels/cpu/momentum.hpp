// kernel<ops::Momentum, cpu>: the standard or Nesterov momentum step per
// element, in double.
#pragma once

#include "kernels/cpu/optimizer.hpp"
#include "onyx/ops/momentum.hpp"

namespace onyx {

template <>
struct kernel<ops::Momentum, cpu> {
  static constexpr std::array types{ops::Momentum::T1, ops::Momentum::T3};
  template <ops::signature S>
  static status run(const call<ops::Momentum>& c) {
    using T = storage_t<S[1]>;
    ONYX_ASSIGN(auto s, kernels::cpu::optimizer_step_of<S[0]>(c, 3));
    const auto& a = c.attrs();
    const bool nesterov = a.mode == "nesterov";
    const double alpha = a.alpha, beta = s.T > 0 ? a.beta : 1.0;
    for (int i = 0; i < s.n; ++i) {
      const T* x = c.input(2 + i).template data<T>();
      const T* g = c.input(2 + s.n + i).template data<T>();
      const T* v = c.input(2 + 2 * s.n + i).template data<T>();
      T* x_new = c.output(i).template data<T>();
      T* v_new = c.output(s.n + i).template data<T>();
      parallel_for(c.pool(), c.input(2 + i).size(), kernels::cpu::elementwise_grain,
                   [&](std::int64_t b, std::int64_t e) {
                     for (std::int64_t j = b; j < e; ++j) {
                       const double xd = static_cast<double>(x[j]);
                       const double gr = a.norm_coefficient * xd + static_cast<double>(g[j]);
                       const double vn = alpha * static_cast<double>(v[j]) + beta * gr;
                       v_new[j] = static_cast<T>(vn);
                       x_new[j] = static_cast<T>(xd - s.R * (nesterov ? gr + alpha * vn : vn));
                     }
                   });
    }
    return ok();
  }
};

}  // namespace onyx
