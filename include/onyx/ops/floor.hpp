// ops::Floor: y = floor(x).
// Opsets 1-latest (6 dropped consumed_inputs, 13 added bfloat16).
// Kernel (kernels/cpu/floor.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Floor : unary<"Floor", 1, dtypes::floats> {};

}  // namespace onyx::ops
