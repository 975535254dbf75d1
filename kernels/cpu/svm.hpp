// kernels/cpu/svm.hpp: the kernel functions of SVMRegressor/SVMClassifier.
//
// prepare stores the support vectors transposed (features x vectors), so
// that for one row of X the values K(x, sv_j) for all j come from one pass
// over the features whose inner loop runs along j: independent accumulators
// the compiler vectorizes, with the RBF distance computed as sum (x - v)^2
// (no |x|^2 + |v|^2 - 2 x.v cancellation). Exponentials and tanh go through
// the ISA table's vector functions. Rows are split across the pool.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/status.hpp"

namespace onyx::kernels::cpu::svm {

enum class kernel_kind : std::uint8_t { linear, poly, rbf, sigmoid };

inline result<kernel_kind> parse_kernel(const std::string& s) {
  if (s == "LINEAR") return kernel_kind::linear;
  if (s == "POLY") return kernel_kind::poly;
  if (s == "RBF") return kernel_kind::rbf;
  if (s == "SIGMOID") return kernel_kind::sigmoid;
  return status(errc::invalid_graph, "unknown kernel_type '" + s + "'");
}

struct support_set {
  kernel_kind kind = kernel_kind::linear;
  float gamma = 0, coef0 = 0;
  int degree = 0;
  std::int64_t vectors = 0, features = 0;
  std::vector<float> transposed;  // features x vectors

  /// Reads kernel_params (gamma, coef0, degree) and `n` vectors of the flat
  /// `sv`; fails when sv is not n x features for some whole features.
  static result<support_set> make(kernel_kind kind, const std::vector<float>& params, const std::vector<float>& sv,
                                  std::int64_t n) {
    support_set s;
    s.kind = kind;
    if (!params.empty()) s.gamma = params[0];
    if (params.size() > 1) s.coef0 = params[1];
    if (params.size() > 2) s.degree = static_cast<int>(params[2]);
    s.vectors = n;
    if (n <= 0 || sv.empty() || static_cast<std::int64_t>(sv.size()) % n != 0)
      return status(errc::invalid_graph, "support_vectors has " + std::to_string(sv.size()) +
                                             " values, not a multiple of n_supports (" + std::to_string(n) + ")");
    s.features = static_cast<std::int64_t>(sv.size()) / n;
    s.transposed.resize(sv.size());
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t f = 0; f < s.features; ++f)
        s.transposed[static_cast<std::size_t>(f * n + j)] = sv[static_cast<std::size_t>(j * s.features + f)];
    return s;
  }

  /// k[j] = K(x, sv_j) for the `features` values at x.
  void evaluate(const float* x, float* k) const {
    const std::int64_t n = vectors;
    std::fill(k, k + n, 0.0f);
    if (kind == kernel_kind::rbf) {
      for (std::int64_t f = 0; f < features; ++f) {
        const float xf = x[f];
        const float* v = transposed.data() + f * n;
        for (std::int64_t j = 0; j < n; ++j) {
          const float d = xf - v[j];
          k[j] += d * d;
        }
      }
      for (std::int64_t j = 0; j < n; ++j) k[j] *= -gamma;
      isa::active().f32_exp(k, k, n);
      return;
    }
    for (std::int64_t f = 0; f < features; ++f) {
      const float xf = x[f];
      const float* v = transposed.data() + f * n;
      for (std::int64_t j = 0; j < n; ++j) k[j] += xf * v[j];
    }
    if (kind == kernel_kind::poly) {
      for (std::int64_t j = 0; j < n; ++j) {
        const float b = k[j] * gamma + coef0;
        float p = 1;
        for (int d = 0; d < degree; ++d) p *= b;
        k[j] = p;
      }
    } else if (kind == kernel_kind::sigmoid) {
      for (std::int64_t j = 0; j < n; ++j) k[j] = k[j] * gamma + coef0;
      isa::active().f32_tanh(k, k, n);
    }
  }
};

}  // namespace onyx::kernels::cpu::svm
