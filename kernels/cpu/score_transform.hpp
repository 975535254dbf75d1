// kernels/cpu/score_transform.hpp: the post_transform of the ai.onnx.ml
// scoring ops (tree ensembles, linear and SVM models), applied to one row of
// scores in double. The formulas are ORT's (onnxruntime/core/providers/cpu/ml/
// ml_common.h), which the spec leaves open:
//   LOGISTIC      1 / (1 + exp(-|v|)), mirrored for v < 0
//   SOFTMAX       exp(v - max) / sum
//   SOFTMAX_ZERO  like SOFTMAX, but a score of exactly zero (|v| <= 1e-7)
//                 stays zero; when every score is zero each becomes 0.5
//   PROBIT        sqrt(2) * erfinv(2v - 1) with Winitzki's erfinv (a = 0.147)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "onyx/core/status.hpp"

namespace onyx::kernels::cpu {

/// post_transform, numbered as TreeEnsemble's integer attribute.
enum class score_transform : std::uint8_t { none = 0, softmax = 1, logistic = 2, softmax_zero = 3, probit = 4 };

/// The string form (opsets before TreeEnsemble) as the enum.
inline result<score_transform> parse_score_transform(std::string_view s) {
  if (s == "NONE") return score_transform::none;
  if (s == "SOFTMAX") return score_transform::softmax;
  if (s == "LOGISTIC") return score_transform::logistic;
  if (s == "SOFTMAX_ZERO") return score_transform::softmax_zero;
  if (s == "PROBIT") return score_transform::probit;
  return status(errc::invalid_graph, "unknown post_transform '" + std::string(s) + "'");
}

inline double logistic(double v) {
  const double e = 1.0 / (1.0 + std::exp(-std::abs(v)));
  return v < 0 ? 1.0 - e : e;
}

inline double probit(double v) {
  const double x = 2 * v - 1;
  const double sgn = x < 0 ? -1.0 : 1.0;
  const double w = (1.0 - x) * (1.0 + x);
  if (w == 0) return 0;
  const double l = std::log(w);
  const double a = 2.0 / (3.14159265358979323846 * 0.147) + 0.5 * l;
  const double b = l / 0.147;
  return 1.41421356 * sgn * std::sqrt(-a + std::sqrt(a * a - b));
}

/// Applies `t` to the n scores at `s` in place.
inline void apply_score_transform(score_transform t, double* s, std::int64_t n) {
  switch (t) {
    case score_transform::none:
      return;
    case score_transform::logistic:
      for (std::int64_t i = 0; i < n; ++i) s[i] = logistic(s[i]);
      return;
    case score_transform::probit:
      for (std::int64_t i = 0; i < n; ++i) s[i] = probit(s[i]);
      return;
    case score_transform::softmax: {
      const double m = *std::max_element(s, s + n);
      double sum = 0;
      for (std::int64_t i = 0; i < n; ++i) sum += (s[i] = std::exp(s[i] - m));
      for (std::int64_t i = 0; i < n; ++i) s[i] /= sum;
      return;
    }
    case score_transform::softmax_zero: {
      const double m = *std::max_element(s, s + n);
      const double scale = std::exp(-m);
      double sum = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        s[i] = s[i] > 1e-7 || s[i] < -1e-7 ? std::exp(s[i] - m) : s[i] * scale;
        sum += s[i];
      }
      for (std::int64_t i = 0; i < n; ++i) s[i] = sum == 0 ? 0.5 : s[i] / sum;
      return;
    }
  }
}

}  // namespace onyx::kernels::cpu
