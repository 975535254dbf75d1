// kernel<ops::TreeEnsembleClassifier, cpu>: the forest of
// kernels/cpu/tree_ensemble_regressor.hpp with one target per class; run
// finalizes each row as ORT does (see the op header for the binary case):
// base values, the label, then the transformed scores.
#pragma once

#include <set>

#include "kernels/cpu/tree_ensemble_regressor.hpp"
#include "onyx/ops/tree_ensemble_classifier.hpp"

namespace onyx::kernels::cpu::tree_classifier_detail {

struct state : tree_lists::state {
  bool binary = false;       // two labels, every class_id the same
  bool all_positive = true;  // every class weight >= 0
};

/// Index of the label of one row (with its scores s, flags h over `classes`
/// columns) and its Z row written to z. Follows ORT's TreeAggregatorClassifier.
/// Returns the label index, or -1/-2 for ORT's literal labels 0/1 (two
/// classes that are not the binary case, int64 labels).
inline std::int64_t finalize(const state& st, double* s, unsigned char* h, std::int64_t classes, float* z) {
  const auto& base = st.base;
  if (classes != 2) {
    for (std::size_t k = 0; k < base.size() && k < static_cast<std::size_t>(classes); ++k) s[k] += base[k], h[k] = 1;
    std::int64_t best = -1;
    for (std::int64_t k = 0; k < classes; ++k)
      if (h[k] && (best < 0 || s[k] > s[best])) best = k;
    apply_score_transform(st.post, s, classes);
    for (std::int64_t k = 0; k < classes; ++k) z[k] = static_cast<float>(s[k]);
    return best < 0 ? 0 : best;
  }
  int extra = -1;
  std::int64_t size = 2;
  if (base.size() == 2) {
    if (h[1]) {
      s[1] = base[1] + s[0];
      s[0] = -s[1];
    } else {
      s[1] += base[1];
      s[0] += base[0];
    }
  } else if (base.size() == 1) {
    s[0] += base[0];
    if (!h[1]) size = 1;
  } else {
    extra = 3;
    if (!h[1]) size = 1;
  }
  const double pos = size == 2 && h[1] ? s[1] : h[0] ? s[0] : 0.0;
  std::int64_t label;
  if (st.binary) {
    if (st.all_positive) {
      extra = pos > 0.5 ? 0 : 1;
      label = pos > 0.5 ? 1 : 0;
    } else {
      extra = pos > 0 ? 2 : 3;
      label = pos > 0 ? 1 : 0;
    }
  } else {
    label = pos > 0 ? -2 : -1;
  }
  if (size == 2) {
    apply_score_transform(st.post, s, 2);
    z[0] = static_cast<float>(s[0]), z[1] = static_cast<float>(s[1]);
    return label;
  }
  const double v = s[0];
  z[1] = 0;
  if (st.post == score_transform::probit) {
    z[0] = static_cast<float>(probit(v));
  } else if (extra == 0 || extra == 1) {
    z[0] = static_cast<float>(1.0 - v), z[1] = static_cast<float>(v);
  } else if (extra == 2 || extra == 3) {
    if (st.post == score_transform::logistic)
      z[0] = static_cast<float>(logistic(-v)), z[1] = static_cast<float>(logistic(v));
    else
      z[0] = static_cast<float>(-v), z[1] = static_cast<float>(v);
  } else {
    z[0] = static_cast<float>(v);
  }
  return label;
}

}  // namespace onyx::kernels::cpu::tree_classifier_detail

namespace onyx {

template <>
struct kernel<ops::TreeEnsembleClassifier, cpu> {
  static constexpr std::array types{ops::TreeEnsembleClassifier::T1};
  using state = kernels::cpu::tree_classifier_detail::state;

  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::TreeEnsembleClassifier>& p) {
    namespace tl = kernels::cpu::tree_lists;
    const auto& a = p.attrs();
    const std::int64_t classes = a.classes();
    state st;
    ONYX_ASSIGN(st.post, kernels::cpu::parse_score_transform(a.post_transform));
    st.base = tl::doubles(a.base_values, a.base_values_as_tensor);
    const std::vector<double> weights = tl::doubles(a.class_weights, a.class_weights_as_tensor);
    if (classes < 1) return status(errc::invalid_graph, "TreeEnsembleClassifier: no class labels");
    for (std::size_t i = 0; i < a.class_ids.size(); ++i)
      if (a.class_ids[i] < 0 || a.class_ids[i] >= classes)
        return status(errc::invalid_graph, "TreeEnsembleClassifier: class_ids[" + std::to_string(i) +
                                               "] = " + std::to_string(a.class_ids[i]) + " is outside the " +
                                               std::to_string(classes) + " class labels");
    std::set<std::int64_t> used(a.class_ids.begin(), a.class_ids.end());
    st.binary = classes == 2 && used.size() == 1;
    for (double w : weights) st.all_positive = st.all_positive && w >= 0;
    auto b = tl::build(st, a, a.class_treeids, a.class_nodeids, a.class_ids, weights, classes,
                       kernels::cpu::forest::aggregate::sum, S[0] == dtype::float64,
                       kernels::cpu::forest::known_width(p.input(0)));
    if (!b.ok()) return status(b.code(), "TreeEnsembleClassifier: " + b.message());
    return st;
  }

  template <ops::signature S>
  static status run(const call<ops::TreeEnsembleClassifier>& c) {
    const state& st = c.state<state>();
    const auto& a = c.attrs();
    std::vector<double> acc;
    std::vector<unsigned char> has;
    std::int64_t classes = 1;
    ONYX_TRY(kernels::cpu::tree_lists::scores(st, c.input(0), acc, has, c.pool(), classes));
    const std::int64_t rows = static_cast<std::int64_t>(acc.size()) / classes;
    const bool strings = !a.classlabels_strings.empty();
    tensor& y = kernels::cpu::output_sized(c, 0, strings ? dtype::string : dtype::int64, {rows});
    std::vector<float> zrow(static_cast<std::size_t>(std::max<std::int64_t>(classes, 2)));
    float* zp =
        c.has_output(1) ? kernels::cpu::output_sized(c, 1, dtype::float32, {rows, classes}).data<float>() : nullptr;
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t k = kernels::cpu::tree_classifier_detail::finalize(
          st, acc.data() + r * classes, has.data() + r * classes, classes, zrow.data());
      if (zp) std::copy_n(zrow.data(), classes, zp + r * classes);
      if (strings)
        y.data<std::string>()[r] = a.classlabels_strings[static_cast<std::size_t>(k < 0 ? -1 - k : k)];
      else
        y.data<std::int64_t>()[r] = k < 0 ? -1 - k : a.classlabels_int64s[static_cast<std::size_t>(k)];
    }
    return ok();
  }
};

}  // namespace onyx
