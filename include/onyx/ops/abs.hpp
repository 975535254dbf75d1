// ops::Abs: y = |x|.
// Opsets 1-latest (6 dropped consumed_inputs, 13 added bfloat16).
// Kernel (kernels/cpu/abs.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Abs : unary<"Abs", 1, dtypes::numeric> {};

}  // namespace onyx::ops
