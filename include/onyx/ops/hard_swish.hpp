// ops::HardSwish: y = x * clamp(x / 6 + 1/2, 0, 1).
// Opsets 14-latest (22 added bfloat16).
// Kernel (kernels/cpu/hard_swish.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct HardSwish {
  static constexpr std::string_view domain = "", name = "HardSwish";
  static constexpr int since = 14, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
