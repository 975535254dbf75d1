// ops::Asin: y = asin(x).
// Opsets 7-latest (22 added bfloat16).
// Kernel (kernels/cpu/asin.hpp): every listed type; half types in float.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Asin : unary<"Asin", 7, dtypes::floats> {};

}  // namespace onyx::ops
