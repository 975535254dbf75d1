// ops::Softplus: y = ln(1 + e^x), computed without overflow for large x.
// Opsets 1-latest (22 added bfloat16).
// Kernel (kernels/cpu/softplus.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Softplus : unary<"Softplus", 1, dtypes::floats> {};

}  // namespace onyx::ops
