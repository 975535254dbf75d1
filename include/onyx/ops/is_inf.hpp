// ops::IsInf: y = (x is +inf and detect_positive) or (x is -inf and detect_negative), bool.
// Opsets 10-latest (20 added float16/bfloat16 and float8 (not supported here)).
// Kernel (kernels/cpu/is_inf.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct IsInf {
  static constexpr std::string_view domain = "", name = "IsInf";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  static constexpr dtype_set T2 = dtypes::boolean;
  struct attributes {
    std::int64_t detect_negative = 1;
    std::int64_t detect_positive = 1;
    static constexpr auto fields = std::tuple{field{"detect_negative", &attributes::detect_negative}, field{"detect_positive", &attributes::detect_positive}};
  };
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T1, "T1", dtype::boolean);
  }
};

}  // namespace onyx::ops
