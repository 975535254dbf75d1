// ops::Imputer (ai.onnx.ml opset 1): Y = X with every element equal to the
// replaced value (replaced_value_float, NaN matching NaN; replaced_value_int64
// for integer X) set to the imputed value of its column (one value for all,
// or one per index of axis 1, axis 0 of a 1-D X, as ORT).
// X: float32, float64 (imputed_value_floats), int64, int32
// (imputed_value_int64s). Kernel: kernels/cpu/imputer.hpp. Tested in
// test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Imputer {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "Imputer";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i64 | dtypes::i32;
  struct attributes {
    std::vector<float> imputed_value_floats;
    std::vector<std::int64_t> imputed_value_int64s;
    float replaced_value_float = 0.0f;
    std::int64_t replaced_value_int64 = 0;
    static constexpr auto fields = std::tuple{field{"imputed_value_floats", &attributes::imputed_value_floats},
                                              field{"imputed_value_int64s", &attributes::imputed_value_int64s},
                                              field{"replaced_value_float", &attributes::replaced_value_float},
                                              field{"replaced_value_int64", &attributes::replaced_value_int64}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const bool floats = c.input_type(0) == dtype::float32 || c.input_type(0) == dtype::float64;
    const std::size_t n = floats ? a.imputed_value_floats.size() : a.imputed_value_int64s.size();
    if (n == 0)
      return c.fail(std::string(floats ? "imputed_value_floats" : "imputed_value_int64s") + " is empty for X of type " +
                    std::string(onyx::name(c.input_type(0))));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() == 0) return c.fail("X must have rank >= 1");
    if (x.rank_known && n > 1 && x.dims[x.rank() == 1 ? 0 : 1].known() &&
        static_cast<std::int64_t>(n) != x.dims[x.rank() == 1 ? 0 : 1].value())
      return c.fail("the imputed values (" + std::to_string(n) + ") are neither one nor one per column (" +
                    std::to_string(x.dims[x.rank() == 1 ? 0 : 1].value()) + ")");
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
