// ops::Mish: y = x * tanh(softplus(x)).
// Opsets 18-latest (22 added bfloat16).
// Kernel (kernels/cpu/mish.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Mish : unary<"Mish", 18, dtypes::floats> {};

}  // namespace onyx::ops
