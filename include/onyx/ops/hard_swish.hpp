// ops::HardSwish: y = x * clamp(x / 6 + 1/2, 0, 1).
// Opsets 14-latest (22 added bfloat16).
// Kernel (kernels/cpu/hard_swish.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct HardSwish : unary<"HardSwish", 14, dtypes::floats> {};

}  // namespace onyx::ops
