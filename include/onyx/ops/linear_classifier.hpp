// ops::LinearClassifier (ai.onnx.ml opset 1): scores Z = X * coefficients^T +
// intercepts (classes = len(intercepts), or len(coefficients) / C without
// intercepts), Y = the label (classlabels_ints or classlabels_strings).
// X: float32, float64, int64, int32 (computed in float32 as ORT).
// Choices where the spec is silent (ORT's behaviour):
//   - the label comes from the raw scores, before post_transform; ties take
//     the first class;
//   - one score column: label = score > 0 ? labels[1] : labels[0] when there
//     are two labels, else 1 : 0 ("1" : "0" for strings); with two labels Z
//     gets two columns (1 - p, p), p = logistic(s) for LOGISTIC and s for the
//     other transforms but PROBIT, which gives (probit(s), 0); with one label
//     only PROBIT is applied to the single column (checked against ORT 1.30
//     by bench/ml_compare.sh's check_linear_binary_*);
//   - multi_class is ignored.
// Kernel: kernels/cpu/linear_classifier.hpp. Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LinearClassifier {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "LinearClassifier";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{2, 2};
  static constexpr dtype_set T1 = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<std::int64_t> classlabels_ints;
    std::vector<std::string> classlabels_strings;
    std::vector<float> coefficients, intercepts;
    std::int64_t multi_class = 0;
    std::string post_transform = "NONE";
    static constexpr auto fields = std::tuple{field{"classlabels_ints", &attributes::classlabels_ints},
                                              field{"classlabels_strings", &attributes::classlabels_strings},
                                              field{"coefficients", &attributes::coefficients, true},
                                              field{"intercepts", &attributes::intercepts},
                                              field{"multi_class", &attributes::multi_class},
                                              field{"post_transform", &attributes::post_transform}};
    std::size_t labels() const {
      return classlabels_strings.empty() ? classlabels_ints.size() : classlabels_strings.size();
    }
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    if (!a.classlabels_strings.empty() && !a.classlabels_ints.empty())
      return c.fail("both classlabels_strings and classlabels_ints are given");
    dim classes = a.intercepts.empty() ? dim::unknown() : dim(static_cast<std::int64_t>(a.intercepts.size()));
    if (x.rank_known && x.dims.back().known()) {
      const std::int64_t cols = x.dims.back().value();
      const auto n = static_cast<std::int64_t>(a.coefficients.size());
      if (cols == 0 || n % cols != 0 ||
          (!a.intercepts.empty() && n != cols * static_cast<std::int64_t>(a.intercepts.size())))
        return c.fail("coefficients has " + std::to_string(n) + " values, not classes x features (" +
                      std::to_string(cols) + ")");
      classes = dim(n / cols);
    }
    if (classes.known() && classes.value() == 1 && a.labels() == 2) classes = dim(2);
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, a.classlabels_strings.empty() ? dtype::int64 : dtype::string, sym_shape({rows}));
    c.set_output(1, dtype::float32, sym_shape({rows, classes}));
    return ok();
  }
};

}  // namespace onyx::ops
