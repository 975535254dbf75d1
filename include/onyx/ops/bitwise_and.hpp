// ops::BitwiseAnd: C = A & B bit by bit on integers, with numpy broadcasting.
// Opsets 18-latest. Kernel (kernels/cpu/bitwise_and.hpp): every integer type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitwiseAnd : binary<"BitwiseAnd", 18, dtypes::ints> {};

}  // namespace onyx::ops
