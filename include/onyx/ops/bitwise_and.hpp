// ops::BitwiseAnd: C = A & B bit by bit on integers, with numpy broadcasting.
// Opsets 18-latest. Kernel (kernels/cpu/bitwise_and.hpp): every integer type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitwiseAnd {
  static constexpr std::string_view domain = "", name = "BitwiseAnd";
  static constexpr int since = 18, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::ints;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) { return infer_binary(c, T, "T"); }
};

}  // namespace onyx::ops
