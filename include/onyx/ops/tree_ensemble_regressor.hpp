// ops::TreeEnsembleRegressor (ai.onnx.ml opsets 1-latest; opset 3's
// *_as_tensor attributes included): trees named by (nodes_treeids,
// nodes_nodeids), rules BRANCH_LEQ/LT/GTE/GT/EQ/NEQ or LEAF; leaf weights come
// from the target_* lists. Y (N x n_targets, float32) = aggregate over the
// trees (SUM, AVERAGE, MIN, MAX) + base_values, then post_transform (NONE,
// SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT) per row.
// X: float32, float64, int64, int32 (rows N x F, or one row of F).
// Choices where the spec is silent (ORT's behaviour): a tree's root is its
// first node in list order; comparisons run in float64 when X or the
// thresholds (nodes_values_as_tensor) are float64, else in float32; MIN/MAX of
// a target no leaf reached is 0 before base_values; the transform applies to
// a single target too. Bad structure fails at session creation (see
// ops::TreeEnsemble). nodes_hitrates is ignored.
// Kernel: kernels/cpu/tree_ensemble_regressor.hpp. Tested in
// test/unit/tree_ensemble_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct TreeEnsembleRegressor {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "TreeEnsembleRegressor";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::string aggregate_function = "SUM";
    std::vector<float> base_values;
    std::optional<tensor> base_values_as_tensor;
    std::int64_t n_targets = 1;
    std::vector<std::int64_t> nodes_falsenodeids, nodes_featureids;
    std::vector<std::int64_t> nodes_missing_value_tracks_true;
    std::vector<std::string> nodes_modes;
    std::vector<std::int64_t> nodes_nodeids, nodes_treeids, nodes_truenodeids;
    std::vector<float> nodes_values;
    std::optional<tensor> nodes_values_as_tensor;
    std::string post_transform = "NONE";
    std::vector<std::int64_t> target_ids, target_nodeids, target_treeids;
    std::vector<float> target_weights;
    std::optional<tensor> target_weights_as_tensor;
    static constexpr auto fields =
        std::tuple{field{"aggregate_function", &attributes::aggregate_function},
                   field{"base_values", &attributes::base_values},
                   field{"base_values_as_tensor", &attributes::base_values_as_tensor},
                   field{"n_targets", &attributes::n_targets},
                   field{"nodes_falsenodeids", &attributes::nodes_falsenodeids},
                   field{"nodes_featureids", &attributes::nodes_featureids},
                   field{"nodes_missing_value_tracks_true", &attributes::nodes_missing_value_tracks_true},
                   field{"nodes_modes", &attributes::nodes_modes},
                   field{"nodes_nodeids", &attributes::nodes_nodeids},
                   field{"nodes_treeids", &attributes::nodes_treeids},
                   field{"nodes_truenodeids", &attributes::nodes_truenodeids},
                   field{"nodes_values", &attributes::nodes_values},
                   field{"nodes_values_as_tensor", &attributes::nodes_values_as_tensor},
                   field{"post_transform", &attributes::post_transform},
                   field{"target_ids", &attributes::target_ids},
                   field{"target_nodeids", &attributes::target_nodeids},
                   field{"target_treeids", &attributes::target_treeids},
                   field{"target_weights", &attributes::target_weights},
                   field{"target_weights_as_tensor", &attributes::target_weights_as_tensor}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    if (a.n_targets < 1) return c.fail("n_targets must be at least 1");
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, dtype::float32, sym_shape({rows, dim(a.n_targets)}));
    return ok();
  }
};

}  // namespace onyx::ops
