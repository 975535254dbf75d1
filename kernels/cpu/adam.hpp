// kernel<ops::Adam, cpu>: the Adam step per element, in double, with the bias
// correction of the learning rate from the second step on (T > 0).
#pragma once

#include <cmath>

#include "kernels/cpu/optimizer.hpp"
#include "onyx/ops/adam.hpp"

namespace onyx {

template <>
struct kernel<ops::Adam, cpu> {
  static constexpr std::array types{ops::Adam::T1, ops::Adam::T3};
  template <ops::signature S>
  static status run(const call<ops::Adam>& c) {
    using T = storage_t<S[1]>;
    ONYX_ASSIGN(auto s, kernels::cpu::optimizer_step_of<S[0]>(c, 4));
    const auto& a = c.attrs();
    const double alpha = a.alpha, beta = a.beta, t = static_cast<double>(s.T);
    const double r = s.T > 0 ? s.R * std::sqrt(1.0 - std::pow(beta, t)) / (1.0 - std::pow(alpha, t)) : s.R;
    const int n = s.n;
    for (int i = 0; i < n; ++i) {
      const T* x = c.input(2 + i).template data<T>();
      const T* g = c.input(2 + n + i).template data<T>();
      const T* v = c.input(2 + 2 * n + i).template data<T>();
      const T* h = c.input(2 + 3 * n + i).template data<T>();
      T* x_new = c.output(i).template data<T>();
      T* v_new = c.output(n + i).template data<T>();
      T* h_new = c.output(2 * n + i).template data<T>();
      parallel_for(
          c.pool(), c.input(2 + i).size(), kernels::cpu::elementwise_grain, [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t j = b; j < e; ++j) {
              const double xd = static_cast<double>(x[j]);
              const double gr = a.norm_coefficient * xd + static_cast<double>(g[j]);
              const double vn = alpha * static_cast<double>(v[j]) + (1.0 - alpha) * gr;
              const double hn = beta * static_cast<double>(h[j]) + (1.0 - beta) * gr * gr;
              v_new[j] = static_cast<T>(vn);
              h_new[j] = static_cast<T>(hn);
              x_new[j] = static_cast<T>((1.0 - a.norm_coefficient_post) * (xd - r * vn / (std::sqrt(hn) + a.epsilon)));
            }
          });
    }
    return ok();
  }
};

}  // namespace onyx
