// ops::Softplus: y = ln(1 + e^x), computed without overflow for large x.
// Opsets 1-latest (22 added bfloat16).
// Kernel (kernels/cpu/softplus.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Softplus {
  static constexpr std::string_view domain = "", name = "Softplus";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
