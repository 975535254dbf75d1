// kernel<ops::SVMClassifier, cpu>: per row, the kernel values against the
// transposed support vectors (kernels/cpu/svm.hpp), the one-vs-one scores
// and votes, Platt probabilities when given, then the label and Z as the op
// header describes (ORT's behaviour). Rows are split across the pool.
#pragma once

#include <algorithm>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/ml_inputs.hpp"
#include "kernels/cpu/score_transform.hpp"
#include "kernels/cpu/svm.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/svm_classifier.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::svm {

struct classifier_state {
  support_set sv;                   // SVC mode (vectors > 0)
  std::vector<std::int64_t> start;  // first support vector of each class
  std::int64_t classes = 1, features = 0;
  bool all_positive = true;
  score_transform post = score_transform::none;
};

/// libsvm's pairwise coupling of probabilities r (k x k) into p (k), in
/// float32 and in the order ORT computes it.
inline void multiclass_probability(std::int64_t k, const float* r, float* p) {
  std::vector<float> q(static_cast<std::size_t>(k * k), 0.0f), qp(static_cast<std::size_t>(k), 0.0f);
  const float eps = 0.005f / static_cast<float>(k);
  auto Q = [&](std::int64_t i, std::int64_t j) -> float& { return q[static_cast<std::size_t>(i * k + j)]; };
  auto R = [&](std::int64_t i, std::int64_t j) { return r[i * k + j]; };
  for (std::int64_t i = 0; i < k; ++i) {
    p[i] = 1.0f / static_cast<float>(k);
    for (std::int64_t j = 0; j < i; ++j) {
      Q(i, i) += R(j, i) * R(j, i);
      Q(i, j) = Q(j, i);
    }
    for (std::int64_t j = i + 1; j < k; ++j) {
      Q(i, i) += R(j, i) * R(j, i);
      Q(i, j) = -R(j, i) * R(i, j);
    }
  }
  for (int loop = 0; loop < 100; ++loop) {
    float pqp = 0;
    for (std::int64_t i = 0; i < k; ++i) {
      qp[static_cast<std::size_t>(i)] = 0;
      for (std::int64_t j = 0; j < k; ++j) qp[static_cast<std::size_t>(i)] += Q(i, j) * p[j];
      pqp += p[i] * qp[static_cast<std::size_t>(i)];
    }
    float max_error = 0;
    for (std::int64_t i = 0; i < k; ++i)
      max_error = std::max(max_error, std::abs(qp[static_cast<std::size_t>(i)] - pqp));
    if (max_error < eps) break;
    for (std::int64_t i = 0; i < k; ++i) {
      const float diff = (-qp[static_cast<std::size_t>(i)] + pqp) / Q(i, i);
      p[i] += diff;
      pqp = (pqp + diff * (diff * Q(i, i) + 2 * qp[static_cast<std::size_t>(i)])) / (1 + diff) / (1 + diff);
      for (std::int64_t j = 0; j < k; ++j) {
        qp[static_cast<std::size_t>(j)] = (qp[static_cast<std::size_t>(j)] + diff * Q(i, j)) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
}

}  // namespace onyx::kernels::cpu::svm

namespace onyx {

template <>
struct kernel<ops::SVMClassifier, cpu> {
  static constexpr std::array types{ops::SVMClassifier::T1};
  using state = kernels::cpu::svm::classifier_state;

  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::SVMClassifier>& p) {
    namespace svm = kernels::cpu::svm;
    const auto& a = p.attrs();
    auto bad = [](std::string m) { return status(errc::invalid_graph, "SVMClassifier: " + std::move(m)); };
    state st;
    ONYX_ASSIGN(st.post, kernels::cpu::parse_score_transform(a.post_transform));
    st.classes = a.classes();
    if (a.coefficients.empty()) return bad("coefficients is empty");
    if (a.rho.empty()) return bad("rho is empty");
    if (a.prob_a.size() != a.prob_b.size())
      return bad("prob_a has " + std::to_string(a.prob_a.size()) + " values, prob_b " +
                 std::to_string(a.prob_b.size()));
    for (float c : a.coefficients) st.all_positive = st.all_positive && c >= 0;
    const std::int64_t pairs = st.classes * (st.classes - 1) / 2;
    if (a.svc()) {
      ONYX_ASSIGN(auto kind, svm::parse_kernel(a.kernel_type));
      if (static_cast<std::int64_t>(a.vectors_per_class.size()) != st.classes)
        return bad("vectors_per_class has " + std::to_string(a.vectors_per_class.size()) + " entries for " +
                   std::to_string(st.classes) + " classes");
      std::int64_t total = 0;
      for (auto n : a.vectors_per_class) {
        if (n < 0) return bad("vectors_per_class holds a negative count");
        st.start.push_back(total), total += n;
      }
      ONYX_ASSIGN(st.sv, svm::support_set::make(kind, a.kernel_params, a.support_vectors, total));
      st.features = st.sv.features;
      if (static_cast<std::int64_t>(a.coefficients.size()) != (st.classes - 1) * total)
        return bad("coefficients has " + std::to_string(a.coefficients.size()) + " values, not (classes - 1) x " +
                   std::to_string(total) + " support vectors");
      if (static_cast<std::int64_t>(a.rho.size()) < pairs)
        return bad("rho has " + std::to_string(a.rho.size()) + " values for " + std::to_string(pairs) + " class pairs");
      if (!a.prob_a.empty() && static_cast<std::int64_t>(a.prob_a.size()) < pairs)
        return bad("prob_a has " + std::to_string(a.prob_a.size()) + " values for " + std::to_string(pairs) +
                   " class pairs");
    } else {
      if (static_cast<std::int64_t>(a.coefficients.size()) % st.classes != 0)
        return bad("coefficients has " + std::to_string(a.coefficients.size()) + " values, not a multiple of " +
                   std::to_string(st.classes) + " classes");
      st.features = static_cast<std::int64_t>(a.coefficients.size()) / st.classes;
    }
    const std::int64_t width = kernels::cpu::ml::known_width(p.input(0));
    if (width >= 0 && width != st.features)
      return bad("X has " + std::to_string(width) + " features, the model " + std::to_string(st.features));
    return st;
  }

  template <ops::signature S>
  static status run(const call<ops::SVMClassifier>& c) {
    using kernels::cpu::score_transform;
    const auto& a = c.attrs();
    const state& st = c.state<state>();
    const tensor& x = c.input(0);
    const auto [rows, cols] = kernels::cpu::ml::rows_cols(x);
    if (cols != st.features)
      return status(errc::invalid_argument,
                    "X has " + std::to_string(cols) + " features, the model " + std::to_string(st.features));
    std::vector<float> buf;
    const float* xp = kernels::cpu::ml::as_floats(x, buf);
    const std::int64_t k = st.classes, pairs = k * (k - 1) / 2, zc = a.score_columns();
    const bool svc = st.sv.vectors > 0, proba = !a.prob_a.empty();
    const bool strings = !a.classlabels_strings.empty();
    tensor& y = kernels::cpu::output_sized(c, 0, strings ? dtype::string : dtype::int64, {rows});
    float* zp = kernels::cpu::output_sized(c, 1, dtype::float32, {rows, zc}).data<float>();
    const std::int64_t work = (svc ? st.sv.vectors : k) * std::max<std::int64_t>(cols, 1);
    parallel_for(c.pool(), rows, grain_for(work), [&](std::int64_t b, std::int64_t e) {
      std::vector<float> kv(static_cast<std::size_t>(st.sv.vectors)),
          scores(static_cast<std::size_t>(std::max(pairs, k)));
      std::vector<float> r2(static_cast<std::size_t>(k * k));
      std::vector<std::int64_t> votes(static_cast<std::size_t>(k));
      std::vector<double> row(static_cast<std::size_t>(std::max(zc, k)));
      for (std::int64_t n = b; n < e; ++n) {
        const float* xr = xp + n * cols;
        float* z = zp + n * zc;
        std::int64_t best = 0;
        float best_score = 0;
        if (!svc) {
          for (std::int64_t j = 0; j < k; ++j) {
            float s = 0;
            for (std::int64_t f = 0; f < cols; ++f) s += xr[f] * a.coefficients[static_cast<std::size_t>(j * cols + f)];
            z[j] = s + a.rho[0];
            if (j == 0 || z[j] > best_score) best = j, best_score = z[j];
          }
        } else {
          st.sv.evaluate(xr, kv.data());
          std::fill(votes.begin(), votes.end(), 0);
          const std::int64_t total = st.sv.vectors;
          std::int64_t idx = 0;
          for (std::int64_t i = 0; i + 1 < k; ++i)
            for (std::int64_t j = i + 1; j < k; ++j, ++idx) {
              double s = 0;
              const auto si = st.start[static_cast<std::size_t>(i)], sj = st.start[static_cast<std::size_t>(j)];
              const auto ni = a.vectors_per_class[static_cast<std::size_t>(i)],
                         nj = a.vectors_per_class[static_cast<std::size_t>(j)];
              for (std::int64_t m = 0; m < ni; ++m)
                s += a.coefficients[static_cast<std::size_t>((j - 1) * total + si + m)] *
                     kv[static_cast<std::size_t>(si + m)];
              for (std::int64_t m = 0; m < nj; ++m)
                s +=
                    a.coefficients[static_cast<std::size_t>(i * total + sj + m)] * kv[static_cast<std::size_t>(sj + m)];
              s += a.rho[static_cast<std::size_t>(idx)];
              scores[static_cast<std::size_t>(idx)] = static_cast<float>(s);
              ++votes[static_cast<std::size_t>(s > 0 ? i : j)];
            }
          best = std::max_element(votes.begin(), votes.end()) - votes.begin();
          if (proba) {
            std::fill(r2.begin(), r2.end(), 0.0f);
            idx = 0;
            for (std::int64_t i = 0; i + 1 < k; ++i)
              for (std::int64_t j = i + 1; j < k; ++j, ++idx) {
                const float v = scores[static_cast<std::size_t>(idx)] * a.prob_a[static_cast<std::size_t>(idx)] +
                                a.prob_b[static_cast<std::size_t>(idx)];
                float p1 = 1 - static_cast<float>(kernels::cpu::logistic(v));
                p1 = std::min(std::max(p1, 1.0e-7f), 1 - 1.0e-7f);
                r2[static_cast<std::size_t>(i * k + j)] = p1;
                r2[static_cast<std::size_t>(j * k + i)] = 1 - p1;
              }
            kernels::cpu::svm::multiclass_probability(k, r2.data(), z);
          } else if (k > 2) {
            std::copy_n(scores.data(), pairs, z);
          } else {
            z[0] = scores[0];
          }
        }
        // The label.
        std::int64_t label = best;
        if (k == 2 && !svc) {
          if ((st.all_positive && best_score >= 0.5f) || (!st.all_positive && best_score > 0)) label = 1;
        }
        if (strings)
          y.data<std::string>()[n] = a.classlabels_strings[static_cast<std::size_t>(label)];
        else
          y.data<std::int64_t>()[n] = a.classlabels_ints[static_cast<std::size_t>(label)];
        // Z's transform.
        if (svc && !proba && k <= 2) {
          const float s = z[0];
          if (st.post == score_transform::probit)
            z[0] = static_cast<float>(kernels::cpu::probit(s)), z[1] = 0;
          else if (st.post == score_transform::none)
            z[0] = -s, z[1] = s;
          else if (st.post == score_transform::logistic) {
            const float p = static_cast<float>(kernels::cpu::logistic(s));
            z[0] = 1 - p, z[1] = p;
          } else
            z[0] = 1 - s, z[1] = s;
          continue;
        }
        if (zc == 1) {
          if (st.post == score_transform::probit) z[0] = static_cast<float>(kernels::cpu::probit(z[0]));
          continue;
        }
        std::copy_n(z, zc, row.begin());
        kernels::cpu::apply_score_transform(st.post, row.data(), zc);
        for (std::int64_t j = 0; j < zc; ++j) z[j] = static_cast<float>(row[static_cast<std::size_t>(j)]);
      }
    });
    return ok();
  }
};

}  // namespace onyx
