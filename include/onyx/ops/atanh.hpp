// ops::Atanh: y = atanh(x).
// Opsets 9-latest (22 added bfloat16).
// Kernel (kernels/cpu/atanh.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Atanh : unary<"Atanh", 9, dtypes::floats> {};

}  // namespace onyx::ops
