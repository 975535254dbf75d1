// kernel<ops::SVMRegressor, cpu>: per row, the kernel values against the
// transposed support vectors (kernels/cpu/svm.hpp), their dot product with
// the coefficients, + rho; rows split across the pool.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/ml_inputs.hpp"
#include "kernels/cpu/score_transform.hpp"
#include "kernels/cpu/svm.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/svm_regressor.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::svm {

struct regressor_state {
  support_set sv;  // empty (vectors == 0) in the linear mode
  score_transform post = score_transform::none;
};

}  // namespace onyx::kernels::cpu::svm

namespace onyx {

template <>
struct kernel<ops::SVMRegressor, cpu> {
  static constexpr std::array types{ops::SVMRegressor::T};
  using state = kernels::cpu::svm::regressor_state;

  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::SVMRegressor>& p) {
    namespace svm = kernels::cpu::svm;
    const auto& a = p.attrs();
    state st;
    ONYX_ASSIGN(st.post, kernels::cpu::parse_score_transform(a.post_transform));
    ONYX_ASSIGN(auto kind, svm::parse_kernel(a.kernel_type));
    if (a.rho.empty()) return status(errc::invalid_graph, "SVMRegressor: rho is empty");
    if (a.n_supports > 0) {
      ONYX_ASSIGN(st.sv, svm::support_set::make(kind, a.kernel_params, a.support_vectors, a.n_supports));
      if (static_cast<std::int64_t>(a.coefficients.size()) != a.n_supports)
        return status(errc::invalid_graph, "SVMRegressor: " + std::to_string(a.coefficients.size()) +
                                               " coefficients for " + std::to_string(a.n_supports) +
                                               " support vectors");
    }
    const std::int64_t width = kernels::cpu::ml::known_width(p.input(0));
    const std::int64_t need = a.n_supports > 0 ? st.sv.features : static_cast<std::int64_t>(a.coefficients.size());
    if (width >= 0 && width != need)
      return status(errc::invalid_graph,
                    "SVMRegressor: X has " + std::to_string(width) + " features, the model " + std::to_string(need));
    return st;
  }

  template <ops::signature S>
  static status run(const call<ops::SVMRegressor>& c) {
    const auto& a = c.attrs();
    const state& st = c.state<state>();
    const tensor& x = c.input(0);
    const auto [rows, cols] = kernels::cpu::ml::rows_cols(x);
    const std::int64_t need = a.n_supports > 0 ? st.sv.features : static_cast<std::int64_t>(a.coefficients.size());
    if (cols != need)
      return status(errc::invalid_argument,
                    "X has " + std::to_string(cols) + " features, the model " + std::to_string(need));
    std::vector<float> buf;
    const float* xp = kernels::cpu::ml::as_floats(x, buf);
    float* yp = kernels::cpu::output_sized(c, 0, dtype::float32, {rows, 1}).data<float>();
    const std::int64_t n = st.sv.vectors;
    parallel_for(c.pool(), rows, grain_for(std::max<std::int64_t>(n, 1) * cols), [&](std::int64_t b, std::int64_t e) {
      std::vector<float> k(static_cast<std::size_t>(n));
      for (std::int64_t r = b; r < e; ++r) {
        const float* row = xp + r * cols;
        double s = a.rho[0];
        if (n > 0) {
          st.sv.evaluate(row, k.data());
          for (std::int64_t j = 0; j < n; ++j)
            s += static_cast<double>(a.coefficients[static_cast<std::size_t>(j)]) * k[static_cast<std::size_t>(j)];
        } else {
          for (std::int64_t f = 0; f < cols; ++f)
            s += static_cast<double>(row[f]) * a.coefficients[static_cast<std::size_t>(f)];
        }
        if (a.one_class) s = s > 0 ? 1.0 : -1.0;
        kernels::cpu::apply_score_transform(st.post, &s, 1);
        yp[r] = static_cast<float>(s);
      }
    });
    return ok();
  }
};

}  // namespace onyx
