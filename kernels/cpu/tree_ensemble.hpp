// kernel<ops::TreeEnsemble, cpu>: prepare turns the node/leaf attributes into
// a forest_spec and flattens it (kernels/cpu/forest.hpp); run scores the
// rows, applies post_transform per row and writes Y in X's type. Float16
// compares in float32; float64 in float64.
#pragma once

#include <cmath>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/forest.hpp"
#include "kernels/cpu/score_transform.hpp"
#include "onyx/ops/tree_ensemble.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::tree_ensemble_detail {

template <class E>
result<forest::flat_forest<E>> build(const ops::TreeEnsemble::attributes& a, std::int64_t width) {
  ONYX_TRY(ops::TreeEnsemble::check(a));
  using forest::child;
  using forest::rule;
  forest::forest_spec<E> s;
  const std::size_t n = a.nodes_featureids.size();
  s.feature = a.nodes_featureids;
  s.split.resize(n);
  s.mode.resize(n);
  s.on_true.resize(n);
  s.on_false.resize(n);
  s.members.resize(n);
  s.missing_true.assign(a.nodes_missing_value_tracks_true.begin(), a.nodes_missing_value_tracks_true.end());
  std::int64_t member_at = 0, member_count = 0;
  const tensor* mv = a.membership_values ? &*a.membership_values : nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    const auto ii = static_cast<std::int64_t>(i);
    const double m = forest::element(*a.nodes_modes, ii);
    if (m < 0 || m > 6)
      return status(errc::invalid_graph, "TreeEnsemble: node " + std::to_string(i) + " has mode " +
                                             std::to_string(static_cast<int>(m)) + ", not in [0, 6]");
    s.mode[i] = static_cast<rule>(static_cast<int>(m));
    s.split[i] = static_cast<E>(forest::element(*a.nodes_splits, ii));
    s.on_true[i] = child{a.nodes_trueleafs[i] != 0, a.nodes_truenodeids[i]};
    s.on_false[i] = child{a.nodes_falseleafs[i] != 0, a.nodes_falsenodeids[i]};
    if (s.mode[i] == rule::member) {
      // The i-th MEMBER node takes the next NaN-terminated run of membership_values.
      ++member_count;
      if (!mv)
        return status(errc::invalid_graph,
                      "TreeEnsemble: node " + std::to_string(i) + " is a MEMBER node but membership_values is absent");
      for (; member_at < mv->size(); ++member_at) {
        const double v = forest::element(*mv, member_at);
        if (std::isnan(v)) break;
        s.members[i].push_back(static_cast<E>(v));
      }
      if (member_at >= mv->size())
        return status(errc::invalid_graph, "TreeEnsemble: membership_values has no NaN-terminated run for node " +
                                               std::to_string(i) + " (MEMBER node " + std::to_string(member_count) +
                                               ")");
      ++member_at;
    }
  }
  if (mv && member_at != mv->size())
    return status(errc::invalid_graph, "TreeEnsemble: membership_values holds more runs than the " +
                                           std::to_string(member_count) + " MEMBER nodes");
  s.leaves.resize(a.leaf_targetids.size());
  for (std::size_t l = 0; l < s.leaves.size(); ++l)
    s.leaves[l].push_back({a.leaf_targetids[l], forest::element(*a.leaf_weights, static_cast<std::int64_t>(l))});
  for (std::int64_t r : a.tree_roots) {
    const auto ri = static_cast<std::size_t>(r);
    // A root whose two branches are the same leaf is a tree of one leaf.
    if (r >= 0 && ri < n && a.nodes_trueleafs[ri] && a.nodes_falseleafs[ri] &&
        a.nodes_truenodeids[ri] == a.nodes_falsenodeids[ri])
      s.roots.push_back(child{true, a.nodes_truenodeids[ri]});
    else
      s.roots.push_back(child{false, r});
  }
  s.n_targets = a.targets();
  s.agg = static_cast<forest::aggregate>(a.aggregate_function);
  auto f = forest::build_forest(s, width);
  if (!f.ok()) return status(f.error().code(), "TreeEnsemble: " + std::string(f.error().message()));
  return f;
}

struct state {
  forest::flat_forest<float> f32;
  forest::flat_forest<double> f64;
};

}  // namespace onyx::kernels::cpu::tree_ensemble_detail

namespace onyx {

template <>
struct kernel<ops::TreeEnsemble, cpu> {
  static constexpr std::array types{ops::TreeEnsemble::T};
  using state = kernels::cpu::tree_ensemble_detail::state;

  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::TreeEnsemble>& p) {
    namespace d = kernels::cpu::tree_ensemble_detail;
    state st;
    const std::int64_t width = kernels::cpu::forest::known_width(p.input(0));
    if constexpr (S[0] == dtype::float64) {
      ONYX_ASSIGN(st.f64, d::build<double>(p.attrs(), width));
    } else {
      ONYX_ASSIGN(st.f32, d::build<float>(p.attrs(), width));
    }
    return st;
  }

  template <ops::signature S>
  static status run(const call<ops::TreeEnsemble>& c) {
    using T = storage_t<S[0]>;
    const state& st = c.state<state>();
    const tensor& x = c.input(0);
    std::vector<double> acc;
    std::vector<unsigned char> has;
    std::int64_t nt = 0;
    if constexpr (S[0] == dtype::float64) {
      ONYX_TRY(kernels::cpu::forest::score_rows(st.f64, x, acc, has, c.pool()));
      nt = st.f64.n_targets;
    } else {
      ONYX_TRY(kernels::cpu::forest::score_rows(st.f32, x, acc, has, c.pool()));
      nt = st.f32.n_targets;
    }
    const std::int64_t rows = static_cast<std::int64_t>(acc.size()) / nt;
    const auto post = static_cast<kernels::cpu::score_transform>(c.attrs().post_transform);
    tensor& y = kernels::cpu::output_sized(c, 0, x.type(), {rows, nt});
    T* yp = y.data<T>();
    for (std::int64_t r = 0; r < rows; ++r) {
      double* s = acc.data() + r * nt;
      kernels::cpu::apply_score_transform(post, s, nt);
      for (std::int64_t t = 0; t < nt; ++t) yp[r * nt + t] = store<T>(s[t]);
    }
    return ok();
  }
};

}  // namespace onyx
