// kernel<ops::LinearRegressor, cpu>: Y = X W^T + b by sgemm (W as given,
// targets x C, read transposed; the bias fused as a per-column epilogue),
// then the post transform per row.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/ml_inputs.hpp"
#include "kernels/cpu/score_transform.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/ops/linear_regressor.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::ml {

/// Z (rows x k) = X (rows x cols) * W^T (W: k x cols) + bias (k or empty).
inline status linear_scores(const tensor& x, const std::vector<float>& w, const std::vector<float>& bias,
                            std::int64_t k, float* z, const thread_pool* pool) {
  const auto [rows, cols] = rows_cols(x);
  if (static_cast<std::int64_t>(w.size()) != k * cols)
    return status(errc::invalid_argument, "coefficients has " + std::to_string(w.size()) + " values for " +
                                              std::to_string(k) + " x " + std::to_string(cols) + " features");
  std::vector<float> buf;
  const float* xp = as_floats(x, buf);
  gemm_epilogue ep;
  if (!bias.empty()) ep.bias = bias.data(), ep.kind = gemm_epilogue::bias_kind::per_col;
  sgemm(false, true, rows, k, cols, 1.0f, xp, cols, w.data(), cols, 0.0f, z, k, pool, ep);
  return ok();
}

}  // namespace onyx::kernels::cpu::ml

namespace onyx {

template <>
struct kernel<ops::LinearRegressor, cpu> {
  static constexpr std::array types{ops::LinearRegressor::T};
  using state = kernels::cpu::score_transform;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::LinearRegressor>& p) {
    return kernels::cpu::parse_score_transform(p.attrs().post_transform);
  }
  template <ops::signature S>
  static status run(const call<ops::LinearRegressor>& c) {
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    const auto [rows, cols] = kernels::cpu::ml::rows_cols(x);
    tensor& y = kernels::cpu::output_sized(c, 0, dtype::float32, {rows, a.targets});
    float* yp = y.data<float>();
    ONYX_TRY(kernels::cpu::ml::linear_scores(x, a.coefficients, a.intercepts, a.targets, yp, c.pool()));
    const auto post = c.state<state>();
    if (post != kernels::cpu::score_transform::none) {
      std::vector<double> row(static_cast<std::size_t>(a.targets));
      for (std::int64_t r = 0; r < rows; ++r) {
        std::copy_n(yp + r * a.targets, a.targets, row.begin());
        kernels::cpu::apply_score_transform(post, row.data(), a.targets);
        std::copy(row.begin(), row.end(), yp + r * a.targets);
      }
    }
    return ok();
  }
};

}  // namespace onyx
