// ops::BitwiseNot: Y = ~X bit by bit on integers.
// Opsets 18-latest. Kernel (kernels/cpu/bitwise_not.hpp): every integer type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitwiseNot : unary<"BitwiseNot", 18, dtypes::ints> {};

}  // namespace onyx::ops
