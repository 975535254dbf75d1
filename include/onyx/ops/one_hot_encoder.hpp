// ops::OneHotEncoder (ai.onnx.ml opset 1): Y = X's shape + [categories],
// float32, 1 where the element is the category (cats_int64s or
// cats_strings), 0 elsewhere. With zeros = 0, an element in no category fails.
// X: string, int64, int32, float32, float64 (numbers truncated to int64 to
// match cats_int64s, as ORT). Kernel: kernels/cpu/one_hot_encoder.hpp.
// Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct OneHotEncoder {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "OneHotEncoder";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::string | dtypes::i64 | dtypes::i32 | dtypes::f32 | dtypes::f64;
  struct attributes {
    std::vector<std::int64_t> cats_int64s;
    std::vector<std::string> cats_strings;
    std::int64_t zeros = 1;
    static constexpr auto fields =
        std::tuple{field{"cats_int64s", &attributes::cats_int64s}, field{"cats_strings", &attributes::cats_strings},
                   field{"zeros", &attributes::zeros}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const bool strings = c.input_type(0) == dtype::string;
    const std::size_t n = strings ? a.cats_strings.size() : a.cats_int64s.size();
    if (n == 0) return c.fail(std::string(strings ? "cats_strings" : "cats_int64s") + " is empty");
    sym_shape s = c.input_shape(0);
    if (s.rank_known) s.dims.push_back(dim(static_cast<std::int64_t>(n)));
    c.set_output(0, dtype::float32, std::move(s));
    return ok();
  }
};

}  // namespace onyx::ops
