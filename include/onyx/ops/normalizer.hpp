// ops::Normalizer (ai.onnx.ml opset 1): divides each row of X (axis 1; a 1-D
// X is one row) by its norm: MAX = max(x_i) (signed, as the spec's formula
// and ORT), L1 = sum |x_i|, L2 = sqrt(sum x_i^2). Y is float32.
// Choice where the spec is silent (ORT's): a row whose norm is 0 is copied.
// X: float32, float64, int64, int32. Kernel: kernels/cpu/normalizer.hpp.
// Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Normalizer {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "Normalizer";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::string norm = "MAX";
    static constexpr auto fields = std::tuple{field{"norm", &attributes::norm}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.norm != "MAX" && a.norm != "L1" && a.norm != "L2")
      return c.fail("norm must be MAX, L1 or L2, got '" + a.norm + "'");
    if (c.input_shape(0).rank_known && c.input_shape(0).rank() == 0) return c.fail("X must have rank >= 1");
    c.set_output(0, dtype::float32, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
