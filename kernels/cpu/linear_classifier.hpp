// kernel<ops::LinearClassifier, cpu>: raw scores by sgemm (linear_scores),
// the label from the raw scores, then the post transform (see the op header
// for the single-column case).
#pragma once

#include "kernels/cpu/linear_regressor.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/linear_classifier.hpp"

namespace onyx {

template <>
struct kernel<ops::LinearClassifier, cpu> {
  static constexpr std::array types{ops::LinearClassifier::T1};
  using state = kernels::cpu::score_transform;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::LinearClassifier>& p) {
    return kernels::cpu::parse_score_transform(p.attrs().post_transform);
  }
  template <ops::signature S>
  static status run(const call<ops::LinearClassifier>& c) {
    using kernels::cpu::score_transform;
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    const auto [rows, cols] = kernels::cpu::ml::rows_cols(x);
    const std::int64_t k = !a.intercepts.empty() ? static_cast<std::int64_t>(a.intercepts.size())
                           : cols                ? static_cast<std::int64_t>(a.coefficients.size()) / cols
                                                 : 0;
    if (k < 1) return status(errc::invalid_argument, "LinearClassifier has no classes");
    const bool strings = !a.classlabels_strings.empty();
    const std::size_t labels = a.labels();
    if (k > 1 && labels < static_cast<std::size_t>(k))
      return status(errc::invalid_argument,
                    std::to_string(k) + " score columns but " + std::to_string(labels) + " class labels");
    const bool second = k == 1 && labels == 2;
    const std::int64_t zc = second ? 2 : k;
    std::vector<float> raw(static_cast<std::size_t>(rows * k));
    ONYX_TRY(kernels::cpu::ml::linear_scores(x, a.coefficients, a.intercepts, k, raw.data(), c.pool()));
    tensor& y = kernels::cpu::output_sized(c, 0, strings ? dtype::string : dtype::int64, {rows});
    float* zp = kernels::cpu::output_sized(c, 1, dtype::float32, {rows, zc}).data<float>();
    const auto post = c.state<state>();
    // Labels and transformed scores, rows split over the pool.
    parallel_for(c.pool(), rows, grain_for(16 * k), [&](std::int64_t r0, std::int64_t r1) {
      std::vector<double> row(static_cast<std::size_t>(k));
      for (std::int64_t r = r0; r < r1; ++r) {
        const float* s = raw.data() + r * k;
        std::size_t best = 0;
        if (k == 1) {
          best = s[0] > 0 ? 1 : 0;
        } else {
          for (std::int64_t j = 1; j < k; ++j)
            if (s[j] > s[best]) best = static_cast<std::size_t>(j);
        }
        if (strings)
          y.data<std::string>()[r] = k > 1 || labels == 2 ? a.classlabels_strings[best] : std::string(best ? "1" : "0");
        else
          y.data<std::int64_t>()[r] = k > 1 || labels == 2 ? a.classlabels_ints[best] : static_cast<std::int64_t>(best);
        float* z = zp + r * zc;
        if (k == 1) {
          if (post == score_transform::probit) {
            z[0] = static_cast<float>(kernels::cpu::probit(s[0]));
            if (second) z[1] = 0;
          } else if (second) {
            const float v = post == score_transform::logistic ? static_cast<float>(kernels::cpu::logistic(s[0])) : s[0];
            z[0] = 1.0f - v, z[1] = v;
          } else {
            z[0] = s[0];
          }
          continue;
        }
        std::copy_n(s, k, row.begin());
        kernels::cpu::apply_score_transform(post, row.data(), k);
        for (std::int64_t j = 0; j < k; ++j) z[j] = static_cast<float>(row[static_cast<std::size_t>(j)]);
      }
    });
    return ok();
  }
};

}  // namespace onyx
