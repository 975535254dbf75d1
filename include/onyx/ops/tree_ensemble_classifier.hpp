// ops::TreeEnsembleClassifier (ai.onnx.ml opsets 1-latest; opset 3's
// *_as_tensor attributes included): the trees of TreeEnsembleRegressor with
// class_* leaf weights; Z (N x classes, float32) = summed class weights +
// base_values, then post_transform per row; Y (N) = the label
// (classlabels_int64s or classlabels_strings) of the highest score.
// X: float32, float64, int64, int32.
// Choices where the spec is silent (ORT's behaviour):
//   - ties pick the first class with the highest score;
//   - binary case (two labels, every class_id the same): the single score s
//     (plus base_values[1] where two base values are given) gives the
//     positive label when s > 0.5 (all weights >= 0) or s > 0 (some negative),
//     and Z = (1 - s, s) (all weights >= 0) or (-s, s), LOGISTIC giving
//     (logistic(-s), logistic(s)) in the mixed case and PROBIT one score
//     probit(s) in column 0; the label is decided before the transform
//     (checked against ORT 1.30 by bench/ml_compare.sh's check_tree_binary_*);
//   - two labels with weights on both classes: label = score of class 1 > 0
//     ? 1 : 0 for int64 labels (ORT's literal 1/0), labels[1] : labels[0]
//     for strings;
//   - comparisons and the rest as TreeEnsembleRegressor.
// Kernel: kernels/cpu/tree_ensemble_classifier.hpp. Tested in
// test/unit/tree_ensemble_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct TreeEnsembleClassifier {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "TreeEnsembleClassifier";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 2};
  static constexpr dtype_set T1 = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<float> base_values;
    std::optional<tensor> base_values_as_tensor;
    std::vector<std::int64_t> class_ids, class_nodeids, class_treeids;
    std::vector<float> class_weights;
    std::optional<tensor> class_weights_as_tensor;
    std::vector<std::int64_t> classlabels_int64s;
    std::vector<std::string> classlabels_strings;
    std::vector<std::int64_t> nodes_falsenodeids, nodes_featureids;
    std::vector<std::int64_t> nodes_missing_value_tracks_true;
    std::vector<std::string> nodes_modes;
    std::vector<std::int64_t> nodes_nodeids, nodes_treeids, nodes_truenodeids;
    std::vector<float> nodes_values;
    std::optional<tensor> nodes_values_as_tensor;
    std::string post_transform = "NONE";
    static constexpr auto fields =
        std::tuple{field{"base_values", &attributes::base_values},
                   field{"base_values_as_tensor", &attributes::base_values_as_tensor},
                   field{"class_ids", &attributes::class_ids},
                   field{"class_nodeids", &attributes::class_nodeids},
                   field{"class_treeids", &attributes::class_treeids},
                   field{"class_weights", &attributes::class_weights},
                   field{"class_weights_as_tensor", &attributes::class_weights_as_tensor},
                   field{"classlabels_int64s", &attributes::classlabels_int64s},
                   field{"classlabels_strings", &attributes::classlabels_strings},
                   field{"nodes_falsenodeids", &attributes::nodes_falsenodeids},
                   field{"nodes_featureids", &attributes::nodes_featureids},
                   field{"nodes_missing_value_tracks_true", &attributes::nodes_missing_value_tracks_true},
                   field{"nodes_modes", &attributes::nodes_modes},
                   field{"nodes_nodeids", &attributes::nodes_nodeids},
                   field{"nodes_treeids", &attributes::nodes_treeids},
                   field{"nodes_truenodeids", &attributes::nodes_truenodeids},
                   field{"nodes_values", &attributes::nodes_values},
                   field{"nodes_values_as_tensor", &attributes::nodes_values_as_tensor},
                   field{"post_transform", &attributes::post_transform}};
    std::int64_t classes() const {
      return static_cast<std::int64_t>(classlabels_strings.empty() ? classlabels_int64s.size()
                                                                   : classlabels_strings.size());
    }
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    if (a.classlabels_strings.empty() == a.classlabels_int64s.empty())
      return c.fail("exactly one of classlabels_strings and classlabels_int64s must be given");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, a.classlabels_strings.empty() ? dtype::int64 : dtype::string, sym_shape({rows}));
    if (c.output_count() > 1) c.set_output(1, dtype::float32, sym_shape({rows, dim(a.classes())}));
    return ok();
  }
};

}  // namespace onyx::ops
