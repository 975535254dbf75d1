// ops::FeatureVectorizer (ai.onnx.ml opset 1): concatenates its inputs
// (N x C_i; a 1-D input is one row) along axis 1 into Y (N x sum d_i,
// float32), input i cut or zero-padded to inputdimensions[i] columns.
// Inputs: int32, int64, float32, float64 (each may differ). Kernel:
// kernels/cpu/feature_vectorizer.hpp. Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct FeatureVectorizer {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "FeatureVectorizer";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i32 | dtypes::i64 | dtypes::f32 | dtypes::f64;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::vector<std::int64_t> inputdimensions;
    static constexpr auto fields = std::tuple{field{"inputdimensions", &attributes::inputdimensions}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (static_cast<int>(a.inputdimensions.size()) != c.input_count())
      return c.fail("inputdimensions has " + std::to_string(a.inputdimensions.size()) + " entries for " +
                    std::to_string(c.input_count()) + " inputs");
    std::int64_t width = 0;
    dim rows = dim::unknown();
    for (int i = 0; i < c.input_count(); ++i) {
      ONYX_TRY(require_type(c, i, T1, "T1"));
      const sym_shape& x = c.input_shape(i);
      if (x.rank_known && x.rank() != 1 && x.rank() != 2)
        return c.fail("input " + std::to_string(i) + " must have rank 1 or 2, got " + x.str());
      if (x.rank_known && !rows.known()) rows = x.rank() == 1 ? dim(1) : x.dims[0];
      if (a.inputdimensions[static_cast<std::size_t>(i)] < 0) return c.fail("a negative input dimension");
      width += a.inputdimensions[static_cast<std::size_t>(i)];
    }
    c.set_output(0, dtype::float32, sym_shape({rows, dim(width)}));
    return ok();
  }
};

}  // namespace onyx::ops
