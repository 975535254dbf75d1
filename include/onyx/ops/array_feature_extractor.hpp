// ops::ArrayFeatureExtractor (ai.onnx.ml): selects the entries `Y` (int64,
// flattened) of X's last axis: Z = X[..., Y]. A 1-D X gives (1, len(Y)), as
// ORT and ONNX's reference do.
// Opsets 1-latest. Kernel (kernels/cpu/array_feature_extractor.hpp):
// float32, float64, int32, int64, string; an index outside the last axis
// fails with errc::out_of_range. Tested in test/unit/ml_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct ArrayFeatureExtractor {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "ArrayFeatureExtractor";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f64 | dtypes::i32 | dtypes::i64 | dtypes::string;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "Y (int64)"));
    const sym_shape &x = c.input_shape(0), &y = c.input_shape(1);
    if (x.rank_known && x.rank() == 0) return c.fail("X must have rank >= 1");
    dim count = dim::unknown();
    if (y.rank_known) {
      std::int64_t n = 1;
      bool known = true;
      for (const auto& d : y.dims) known = known && d.known(), n *= d.known() ? d.value() : 1;
      if (known) count = dim(n);
    }
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    std::vector<dim> out(x.dims.begin(), x.dims.end() - 1);
    if (out.empty()) out.push_back(dim(1));
    out.push_back(count);
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
