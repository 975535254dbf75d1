// ops::Sin: y = sin(x).
// Opsets 7-latest (22 added bfloat16).
// Kernel (kernels/cpu/sin.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Sin {
  static constexpr std::string_view domain = "", name = "Sin";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
