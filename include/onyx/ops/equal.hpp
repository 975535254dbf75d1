// ops::Equal: C = A == B elementwise with numpy broadcasting; C is bool.
// Opsets 7-latest (11 added floats, 13 bfloat16, 19 string; 1-6 with legacy broadcasting are not supported).
// Kernel (kernels/cpu/equal.hpp): every listed type; half types in float.
// Inference computes small int64/int32/float32 results.
// Tested in test/unit/comparison_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Equal : binary_predicate<"Equal", 7, dtypes::numeric | dtypes::boolean | dtypes::string, std::equal_to<>> {};

}  // namespace onyx::ops
