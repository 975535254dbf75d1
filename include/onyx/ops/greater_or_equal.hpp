// ops::GreaterOrEqual: C = A >= B elementwise with numpy broadcasting; C is bool.
// Opsets 12-latest (16 added bfloat16).
// Kernel (kernels/cpu/greater_or_equal.hpp): every listed type; half types in float.
// Inference computes small int64/int32/float32 results.
// Tested in test/unit/comparison_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct GreaterOrEqual {
  static constexpr std::string_view domain = "", name = "GreaterOrEqual";
  static constexpr int since = 12, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  static constexpr dtype_set T1 = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T", dtype::boolean));
    propagate_binary(c, [](auto a, auto b) { return a >= b; }, true);
    return ok();
  }
};

}  // namespace onyx::ops
