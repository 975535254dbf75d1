// ops::Scaler (ai.onnx.ml opset 1): Y = (X - offset) * scale, float32, with
// offset and scale of one value or one per index of axis 1 (axis 0 of a 1-D
// X); for rank > 2, element i takes value i % dim 1, as ORT.
// X: float32, float64, int64, int32. A length that is neither 1 nor the
// column count fails when the shape is known. Kernel: kernels/cpu/scaler.hpp.
// Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Scaler {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "Scaler";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<float> offset, scale;
    static constexpr auto fields = std::tuple{field{"offset", &attributes::offset}, field{"scale", &attributes::scale}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() >= 1 && x.dims[x.rank() == 1 ? 0 : 1].known()) {
      const std::int64_t cols = x.dims[x.rank() == 1 ? 0 : 1].value();
      for (auto [what, n] : {std::pair{"offset", a.offset.size()}, std::pair{"scale", a.scale.size()}})
        if (n > 1 && static_cast<std::int64_t>(n) != cols)
          return c.fail(std::string(what) + " has " + std::to_string(n) + " values for " + std::to_string(cols) +
                        " columns");
    }
    c.set_output(0, dtype::float32, x);
    return ok();
  }
};

}  // namespace onyx::ops
