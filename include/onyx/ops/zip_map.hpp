// ops::ZipMap (ai.onnx.ml opset 1): turns each row of X (N x C float32, or
// one row of C) into a map from classlabels_strings or classlabels_int64s
// (C labels) to the row's values; Y is the sequence of the N maps (a value
// of kind sequence whose items are maps; inference records it as a sequence
// with float32 elements). Kernel: kernels/cpu/zip_map.hpp. Tested in
// test/unit/ml_map_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct ZipMap {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "ZipMap";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f32;
  struct attributes {
    std::vector<std::int64_t> classlabels_int64s;
    std::vector<std::string> classlabels_strings;
    static constexpr auto fields = std::tuple{field{"classlabels_int64s", &attributes::classlabels_int64s},
                                              field{"classlabels_strings", &attributes::classlabels_strings}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.classlabels_strings.empty() == a.classlabels_int64s.empty())
      return c.fail("exactly one of classlabels_strings and classlabels_int64s must be given");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && x.rank() != 2) return c.fail("X must have rank 1 or 2, got " + x.str());
    const auto labels = static_cast<std::int64_t>(std::max(a.classlabels_strings.size(), a.classlabels_int64s.size()));
    if (x.rank_known && x.dims.back().known() && x.dims.back().value() != labels)
      return c.fail("X has " + std::to_string(x.dims.back().value()) + " columns for " + std::to_string(labels) +
                    " labels");
    c.set_output(0, value_type{value_kind::sequence, dtype::float32, sym_shape::unknown_rank()});
    return ok();
  }
};

}  // namespace onyx::ops
