// ops::Equal: C = A == B elementwise with numpy broadcasting; C is bool.
// Opsets 7-latest (11 added floats, 13 bfloat16, 19 string; 1-6 with legacy broadcasting are not supported).
// Kernel (kernels/cpu/equal.hpp): every listed type; half types in float.
// Inference computes small int64/int32/float32 results.
// Tested in test/unit/comparison_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Equal {
  static constexpr std::string_view domain = "", name = "Equal";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric | dtypes::boolean | dtypes::string;
  static constexpr dtype_set T1 = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T", dtype::boolean));
    propagate_binary(c, [](auto a, auto b) { return a == b; }, true);
    return ok();
  }
};

}  // namespace onyx::ops
