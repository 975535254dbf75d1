// ops::Softsign: y = x / (1 + |x|).
// Opsets 1-latest (22 added bfloat16).
// Kernel (kernels/cpu/softsign.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Softsign : unary<"Softsign", 1, dtypes::floats> {};

}  // namespace onyx::ops
