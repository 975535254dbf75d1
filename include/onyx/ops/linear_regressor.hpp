// ops::LinearRegressor (ai.onnx.ml opset 1): Y (N x targets, float32) =
// X (N x C, or one row of C) * coefficients^T (targets x C) + intercepts,
// then post_transform per row (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT).
// X: float32, float64, int64, int32 (computed in float32 as ORT).
// Choice: the transform applies to one target too, as the spec says (ORT
// applies only PROBIT there). Kernel: kernels/cpu/linear_regressor.hpp.
// Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LinearRegressor {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "LinearRegressor";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<float> coefficients, intercepts;
    std::string post_transform = "NONE";
    std::int64_t targets = 1;
    static constexpr auto fields =
        std::tuple{field{"coefficients", &attributes::coefficients}, field{"intercepts", &attributes::intercepts},
                   field{"post_transform", &attributes::post_transform}, field{"targets", &attributes::targets}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.targets < 1) return c.fail("targets must be at least 1");
    if (!a.intercepts.empty() && static_cast<std::int64_t>(a.intercepts.size()) != a.targets)
      return c.fail("intercepts has " + std::to_string(a.intercepts.size()) + " values for " +
                    std::to_string(a.targets) + " targets");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    if (x.rank_known && x.dims.back().known() &&
        static_cast<std::int64_t>(a.coefficients.size()) != a.targets * x.dims.back().value())
      return c.fail("coefficients has " + std::to_string(a.coefficients.size()) + " values, not targets (" +
                    std::to_string(a.targets) + ") x features (" + std::to_string(x.dims.back().value()) + ")");
    const dim rows = !x.rank_known ? dim::unknown() : x.rank() == 1 ? dim(1) : x.dims[0];
    c.set_output(0, dtype::float32, sym_shape({rows, dim(a.targets)}));
    return ok();
  }
};

}  // namespace onyx::ops
