// ops::Sign: y = -1, 0 or 1 by the sign of x (NaN gives 0).
// Opsets 9-latest (13 added bfloat16).
// Kernel (kernels/cpu/sign.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Sign : unary<"Sign", 9, dtypes::numeric> {};

}  // namespace onyx::ops
