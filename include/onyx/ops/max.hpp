// ops::Max: elementwise maximum of all inputs, with numpy broadcasting.
// Opsets 1-latest (8 introduced broadcasting, a superset of the same-shape rule
// of 1-7; 12 added integer types). NaN propagates: max(NaN, x) = NaN.
// Kernel (kernels/cpu/max.hpp): every numeric type. Tested in
// test/unit/variadic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Max {
  static constexpr std::string_view domain = "", name = "Max";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_variadic(c, T, "T"));
    if (c.input_count() == 2) propagate_binary(c, [](auto a, auto b) { return a < b ? b : a; });
    return ok();
  }
};

}  // namespace onyx::ops
