// kernel<ops::TreeEnsembleRegressor, cpu> and the node-list translation that
// TreeEnsembleClassifier shares: prepare reads the (tree id, node id) lists
// into a forest (kernels/cpu/forest.hpp), comparing in float64 when X or
// nodes_values_as_tensor is float64; run scores, adds base_values, applies
// post_transform and writes float32.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/forest.hpp"
#include "kernels/cpu/score_transform.hpp"
#include "onyx/ops/tree_ensemble_regressor.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::tree_lists {

/// A float list, or its *_as_tensor form when given, as doubles.
inline std::vector<double> doubles(const std::vector<float>& list, const std::optional<tensor>& t) {
  if (t) {
    std::vector<double> v(static_cast<std::size_t>(t->size()));
    for (std::int64_t i = 0; i < t->size(); ++i) v[static_cast<std::size_t>(i)] = forest::element(*t, i);
    return v;
  }
  return {list.begin(), list.end()};
}

inline result<forest::aggregate> parse_aggregate(const std::string& s) {
  if (s == "SUM") return forest::aggregate::sum;
  if (s == "AVERAGE") return forest::aggregate::average;
  if (s == "MIN") return forest::aggregate::min;
  if (s == "MAX") return forest::aggregate::max;
  return status(errc::invalid_graph, "unknown aggregate_function '" + s + "'");
}

/// Both forms of the forest; `wide` says which one the kernel uses.
struct state {
  forest::flat_forest<float> f32;
  forest::flat_forest<double> f64;
  bool wide = false;
  std::vector<double> base;  // empty or one per target/class
  score_transform post = score_transform::none;
};

/// Builds the forest of an op whose attributes hold the nodes_* lists, with
/// leaf weights (tree ids, node ids, targets, weights).
template <class A>
status build(state& st, const A& a, const std::vector<std::int64_t>& w_tree, const std::vector<std::int64_t>& w_node,
             const std::vector<std::int64_t>& w_id, std::vector<double> weights, std::int64_t targets,
             forest::aggregate agg, bool x_wide, std::int64_t width) {
  st.wide = x_wide || (a.nodes_values_as_tensor && a.nodes_values_as_tensor->type() == dtype::float64);
  const std::vector<double> values = doubles(a.nodes_values, a.nodes_values_as_tensor);
  auto make = [&]<class E>(forest::flat_forest<E>& out) -> status {
    forest::node_lists<E> l{a.nodes_treeids,
                            a.nodes_nodeids,
                            a.nodes_modes,
                            a.nodes_featureids,
                            {},
                            a.nodes_truenodeids,
                            a.nodes_falsenodeids,
                            a.nodes_missing_value_tracks_true,
                            w_tree,
                            w_node,
                            w_id,
                            std::move(weights)};
    l.values.assign(values.begin(), values.end());
    ONYX_ASSIGN(auto spec, forest::from_node_lists(l, targets, agg));
    ONYX_ASSIGN(out, forest::build_forest(spec, width));
    return ok();
  };
  return st.wide ? make(st.f64) : make(st.f32);
}

/// Aggregated scores of every row of x (no base values yet).
inline status scores(const state& st, const tensor& x, std::vector<double>& acc, std::vector<unsigned char>& has,
                     const thread_pool* pool, std::int64_t& targets) {
  if (st.wide) {
    ONYX_TRY(forest::score_rows(st.f64, x, acc, has, pool));
    targets = st.f64.n_targets;
  } else {
    ONYX_TRY(forest::score_rows(st.f32, x, acc, has, pool));
    targets = st.f32.n_targets;
  }
  return ok();
}

}  // namespace onyx::kernels::cpu::tree_lists

namespace onyx {

template <>
struct kernel<ops::TreeEnsembleRegressor, cpu> {
  static constexpr std::array types{ops::TreeEnsembleRegressor::T};
  using state = kernels::cpu::tree_lists::state;

  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::TreeEnsembleRegressor>& p) {
    namespace tl = kernels::cpu::tree_lists;
    const auto& a = p.attrs();
    state st;
    ONYX_ASSIGN(auto agg, tl::parse_aggregate(a.aggregate_function));
    ONYX_ASSIGN(st.post, kernels::cpu::parse_score_transform(a.post_transform));
    st.base = tl::doubles(a.base_values, a.base_values_as_tensor);
    if (!st.base.empty() && static_cast<std::int64_t>(st.base.size()) != a.n_targets)
      return status(errc::invalid_graph, "TreeEnsembleRegressor: base_values has " + std::to_string(st.base.size()) +
                                             " entries for " + std::to_string(a.n_targets) + " targets");
    auto b = tl::build(st, a, a.target_treeids, a.target_nodeids, a.target_ids,
                       tl::doubles(a.target_weights, a.target_weights_as_tensor), a.n_targets, agg,
                       S[0] == dtype::float64, kernels::cpu::forest::known_width(p.input(0)));
    if (!b.ok()) return status(b.code(), "TreeEnsembleRegressor: " + b.message());
    return st;
  }

  template <ops::signature S>
  static status run(const call<ops::TreeEnsembleRegressor>& c) {
    const state& st = c.state<state>();
    std::vector<double> acc;
    std::vector<unsigned char> has;
    std::int64_t nt = 1;
    ONYX_TRY(kernels::cpu::tree_lists::scores(st, c.input(0), acc, has, c.pool(), nt));
    if (!st.base.empty())
      for (std::size_t i = 0; i < acc.size(); ++i) acc[i] += st.base[i % st.base.size()];
    const std::int64_t rows = static_cast<std::int64_t>(acc.size()) / nt;
    tensor& y = kernels::cpu::output_sized(c, 0, dtype::float32, {rows, nt});
    float* yp = y.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
      double* s = acc.data() + r * nt;
      kernels::cpu::apply_score_transform(st.post, s, nt);
      for (std::int64_t t = 0; t < nt; ++t) yp[r * nt + t] = static_cast<float>(s[t]);
    }
    return ok();
  }
};

}  // namespace onyx
