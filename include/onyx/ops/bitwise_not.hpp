// ops::BitwiseNot: Y = ~X bit by bit on integers.
// Opsets 18-latest. Kernel (kernels/cpu/bitwise_not.hpp): every integer type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitwiseNot {
  static constexpr std::string_view domain = "", name = "BitwiseNot";
  static constexpr int since = 18, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::ints;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) { return infer_unary(c, T, "T"); }
};

}  // namespace onyx::ops
