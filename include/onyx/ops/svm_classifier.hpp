// ops::SVMClassifier (ai.onnx.ml opset 1): with support vectors
// (vectors_per_class), one-vs-one: for each class pair (i < j) the score
// sum_{v in i} coef[j-1][v] K(x, v) + sum_{v in j} coef[i][v] K(x, v) + rho[k]
// votes for i when > 0, else for j; Y = the label with the most votes (the
// first on ties). Z holds the pairwise scores, or with prob_a/prob_b the class
// probabilities (Platt: p_ij = 1 - logistic(A s + B), clamped to [1e-7,
// 1 - 1e-7], coupled by libsvm's multiclass_probability). Without support
// vectors (liblinear mode) Z = X coefficients^T + rho[0] per class and Y is the
// best score's label. Kernels as SVMRegressor; post_transform on Z.
// X: float32, float64, int64, int32 (computed in float32 as ORT).
// Choices where the spec is silent (ORT's behaviour, followed exactly):
//   - two classes without probabilities: Z = (-s, s) for NONE, (1 - p, p)
//     with p = logistic(s) for LOGISTIC (both checked against ORT 1.30 by
//     bench/ml_compare.sh's check_svc2_*), (1 - s, s) for SOFTMAX and
//     SOFTMAX_ZERO, (probit(s), 0) for PROBIT;
//   - more than two classes without probabilities: Z has one column per class
//     pair, transformed as a row;
//   - the label comes from the votes even when probabilities are given; in
//     liblinear mode with two labels, label 1 when the best score is >= 0.5
//     (all coefficients >= 0) or > 0 (some negative), else the best class.
// Kernel: kernels/cpu/svm_classifier.hpp. Tested in test/unit/svm_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct SVMClassifier {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "SVMClassifier";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{2, 2};
  static constexpr dtype_set T1 = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<std::int64_t> classlabels_ints;
    std::vector<std::string> classlabels_strings;
    std::vector<float> coefficients, kernel_params;
    std::string kernel_type = "LINEAR";
    std::string post_transform = "NONE";
    std::vector<float> prob_a, prob_b, rho, support_vectors;
    std::vector<std::int64_t> vectors_per_class;
    static constexpr auto fields = std::tuple{field{"classlabels_ints", &attributes::classlabels_ints},
                                              field{"classlabels_strings", &attributes::classlabels_strings},
                                              field{"coefficients", &attributes::coefficients},
                                              field{"kernel_params", &attributes::kernel_params},
                                              field{"kernel_type", &attributes::kernel_type},
                                              field{"post_transform", &attributes::post_transform},
                                              field{"prob_a", &attributes::prob_a},
                                              field{"prob_b", &attributes::prob_b},
                                              field{"rho", &attributes::rho},
                                              field{"support_vectors", &attributes::support_vectors},
                                              field{"vectors_per_class", &attributes::vectors_per_class}};
    std::int64_t classes() const {
      const std::size_t n = classlabels_strings.empty() ? classlabels_ints.size() : classlabels_strings.size();
      return n ? static_cast<std::int64_t>(n) : 1;
    }
    bool svc() const {
      std::int64_t v = 0;
      for (auto n : vectors_per_class) v += n;
      return v > 0;
    }
    /// Z's columns.
    std::int64_t score_columns() const {
      const std::int64_t c = classes();
      if (!svc() || !prob_a.empty()) return c;
      return c > 2 ? c * (c - 1) / 2 : 2;
    }
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    if (a.classlabels_strings.empty() == a.classlabels_ints.empty())
      return c.fail("exactly one of classlabels_strings and classlabels_ints must be given");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, a.classlabels_strings.empty() ? dtype::int64 : dtype::string, sym_shape({rows}));
    c.set_output(1, dtype::float32, sym_shape({rows, dim(a.score_columns())}));
    return ok();
  }
};

}  // namespace onyx::ops
