// ops::IsNaN: y = (x is NaN), bool.
// Opsets 9-latest (13 added bfloat16, 20 float8 (not supported here)).
// Kernel (kernels/cpu/is_nan.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct IsNaN {
  static constexpr std::string_view domain = "", name = "IsNaN";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  static constexpr dtype_set T2 = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T1, "T1", dtype::boolean);
  }
};

}  // namespace onyx::ops
