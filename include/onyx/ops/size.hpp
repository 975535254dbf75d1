// ops::Size: the input's element count as an int64 scalar.
// Opsets 1-latest. All types. Inference gives the value when the shape is
// known. Tested in test/unit/shape_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Size {
  static constexpr std::string_view domain = "", name = "Size";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, T1 = dtypes::i64;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    c.set_output(0, dtype::int64, sym_shape{});
    if (auto e = c.input_shape(0).concrete_extents()) c.set_output_value(0, tensor::scalar<std::int64_t>(element_count(*e)));
    return ok();
  }
};

}  // namespace onyx::ops
