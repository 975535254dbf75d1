// ops::Not: y = !x, bool.
// Opsets 1-latest (unchanged).
// Kernel (kernels/cpu/not.hpp): every listed type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Not {
  static constexpr std::string_view domain = "", name = "Not";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
