// ops::Mean: elementwise mean of all inputs, with numpy broadcasting.
// Opsets 1-latest (8 introduced broadcasting, a superset of the same-shape rule
// of 1-7; the `consumed_inputs` attribute of opset 1 is ignored).
// Kernel (kernels/cpu/mean.hpp): float32, float64, float16, bfloat16 (the last
// two computed in float). Tested in test/unit/variadic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Mean {
  static constexpr std::string_view domain = "", name = "Mean";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_variadic(c, T, "T");
  }
};

}  // namespace onyx::ops
