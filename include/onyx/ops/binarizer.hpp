// ops::Binarizer (ai.onnx.ml): Y = X > threshold ? 1 : 0, in X's type.
// Opsets 1-latest. Kernel (kernels/cpu/binarizer.hpp): float32, float64,
// int32, int64. Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Binarizer {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "Binarizer";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i32 | dtypes::i64;
  struct attributes {
    float threshold = 0.0f;
    static constexpr auto fields = std::tuple{field{"threshold", &attributes::threshold}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
