// ops::Round: y = x rounded to the nearest integer, halves to even.
// Opsets 11-latest (22 added bfloat16).
// Kernel (kernels/cpu/round.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Round : unary<"Round", 11, dtypes::floats> {};

}  // namespace onyx::ops
