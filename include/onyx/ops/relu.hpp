// ops::Relu: y = max(x, 0).
// Opsets 1-latest (6 dropped consumed_inputs, 14 added integer types).
// Kernel (kernels/cpu/relu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Relu {
  static constexpr std::string_view domain = "", name = "Relu";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::signed_ints;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
