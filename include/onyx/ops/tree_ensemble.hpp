// ops::TreeEnsemble (ai.onnx.ml opset 5): an ensemble of decision trees over
// the rows of X (N x F, or one row of F). Node i compares X[feature i] with
// nodes_splits[i] by nodes_modes[i] (0 LEQ, 1 LT, 2 GTE, 3 GT, 4 EQ, 5 NEQ,
// 6 MEMBER: X in the i-th NaN-terminated run of membership_values); a NaN goes
// to the true branch where nodes_missing_value_tracks_true[i]. Branches are
// node indices, or leaf indices where nodes_trueleafs/falseleafs say so; leaf
// j adds leaf_weights[j] to target leaf_targetids[j]. Trees are aggregated by
// aggregate_function (0 AVERAGE, 1 SUM, 2 MIN, 3 MAX) into Y (N x n_targets),
// then post_transform (0 NONE, 1 SOFTMAX, 2 LOGISTIC, 3 SOFTMAX_ZERO, 4
// PROBIT) is applied per row.
// Dtypes: X, Y and the split/weight tensors float32, float64 or float16.
// post_transform follows the spec's numbering. Deviation from ORT 1.30,
// which reads 1 as LOGISTIC and 2 as SOFTMAX (its own enum's order; seen by
// running both on the same model): onyx applies 1 = SOFTMAX, 2 = LOGISTIC.
// Choices where the spec is silent (ORT's behaviour):
//   - post_transform is applied (ONNX's Python reference ignores it);
//   - MIN/MAX: a target no leaf reached is 0;
//   - a root with both branches leaves and equal true/false ids is a tree of
//     one leaf (as ONNX's reference);
//   - n_targets, when absent, is max(leaf_targetids) + 1.
// Bad structure (a branch outside the nodes or leaves, a node reached twice,
// a feature beyond X's width, arrays of different lengths, membership values
// not matching the MEMBER nodes) fails at session creation, naming the node.
// nodes_hitrates is ignored. Kernel: kernels/cpu/tree_ensemble.hpp (engine in
// kernels/cpu/forest.hpp). Tested in test/unit/tree_ensemble_test.cpp and
// node/test_ai_onnx_ml_tree_ensemble_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct TreeEnsemble {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "TreeEnsemble";
  static constexpr int since = 5, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::f16;
  struct attributes {
    std::int64_t aggregate_function = 1;
    std::vector<std::int64_t> leaf_targetids;
    std::optional<tensor> leaf_weights;
    std::optional<tensor> membership_values;
    std::optional<std::int64_t> n_targets;
    std::vector<std::int64_t> nodes_falseleafs, nodes_falsenodeids, nodes_featureids;
    std::optional<tensor> nodes_hitrates;
    std::vector<std::int64_t> nodes_missing_value_tracks_true;
    std::optional<tensor> nodes_modes, nodes_splits;
    std::vector<std::int64_t> nodes_trueleafs, nodes_truenodeids;
    std::int64_t post_transform = 0;
    std::vector<std::int64_t> tree_roots;
    static constexpr auto fields =
        std::tuple{field{"aggregate_function", &attributes::aggregate_function},
                   field{"leaf_targetids", &attributes::leaf_targetids},
                   field{"leaf_weights", &attributes::leaf_weights},
                   field{"membership_values", &attributes::membership_values},
                   field{"n_targets", &attributes::n_targets},
                   field{"nodes_falseleafs", &attributes::nodes_falseleafs},
                   field{"nodes_falsenodeids", &attributes::nodes_falsenodeids},
                   field{"nodes_featureids", &attributes::nodes_featureids},
                   field{"nodes_hitrates", &attributes::nodes_hitrates},
                   field{"nodes_missing_value_tracks_true", &attributes::nodes_missing_value_tracks_true},
                   field{"nodes_modes", &attributes::nodes_modes},
                   field{"nodes_splits", &attributes::nodes_splits},
                   field{"nodes_trueleafs", &attributes::nodes_trueleafs},
                   field{"nodes_truenodeids", &attributes::nodes_truenodeids},
                   field{"post_transform", &attributes::post_transform},
                   field{"tree_roots", &attributes::tree_roots}};

    std::int64_t targets() const {
      if (n_targets) return *n_targets;
      std::int64_t m = -1;
      for (auto t : leaf_targetids) m = std::max(m, t);
      return m + 1;
    }
  };

  /// Array lengths and enumerations agree (the structure is checked at prepare).
  static status check(const attributes& a) {
    const std::size_t n = a.nodes_featureids.size();
    auto len = [&](std::string_view what, std::size_t got, std::size_t want) -> status {
      if (got == want) return ok();
      return status(errc::invalid_graph, "TreeEnsemble: " + std::string(what) + " has " + std::to_string(got) +
                                             " entries but nodes_featureids has " + std::to_string(want));
    };
    ONYX_TRY(len("nodes_falseleafs", a.nodes_falseleafs.size(), n));
    ONYX_TRY(len("nodes_falsenodeids", a.nodes_falsenodeids.size(), n));
    ONYX_TRY(len("nodes_trueleafs", a.nodes_trueleafs.size(), n));
    ONYX_TRY(len("nodes_truenodeids", a.nodes_truenodeids.size(), n));
    ONYX_TRY(len("nodes_modes", a.nodes_modes ? static_cast<std::size_t>(a.nodes_modes->size()) : 0, n));
    ONYX_TRY(len("nodes_splits", a.nodes_splits ? static_cast<std::size_t>(a.nodes_splits->size()) : 0, n));
    if (!a.nodes_missing_value_tracks_true.empty())
      ONYX_TRY(len("nodes_missing_value_tracks_true", a.nodes_missing_value_tracks_true.size(), n));
    const std::size_t leaves = a.leaf_weights ? static_cast<std::size_t>(a.leaf_weights->size()) : 0;
    if (a.leaf_targetids.size() != leaves)
      return status(errc::invalid_graph, "TreeEnsemble: leaf_targetids has " + std::to_string(a.leaf_targetids.size()) +
                                             " entries but leaf_weights has " + std::to_string(leaves));
    if (a.tree_roots.empty()) return status(errc::invalid_graph, "TreeEnsemble: tree_roots is empty");
    if (a.aggregate_function < 0 || a.aggregate_function > 3)
      return status(errc::invalid_graph, "TreeEnsemble: aggregate_function " + std::to_string(a.aggregate_function) +
                                             " is not 0 (AVERAGE), 1 (SUM), 2 (MIN) or 3 (MAX)");
    if (a.post_transform < 0 || a.post_transform > 4)
      return status(errc::invalid_graph,
                    "TreeEnsemble: post_transform " + std::to_string(a.post_transform) + " is not in [0, 4]");
    if (a.targets() < 1) return status(errc::invalid_graph, "TreeEnsemble: n_targets must be at least 1");
    return ok();
  }

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(check(a));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, c.input_type(0), sym_shape({rows, dim(a.targets())}));
    return ok();
  }
};

}  // namespace onyx::ops
