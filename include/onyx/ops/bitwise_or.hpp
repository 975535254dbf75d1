// ops::BitwiseOr: C = A | B bit by bit on integers, with numpy broadcasting.
// Opsets 18-latest. Kernel (kernels/cpu/bitwise_or.hpp): every integer type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitwiseOr : binary<"BitwiseOr", 18, dtypes::ints> {};

}  // namespace onyx::ops
