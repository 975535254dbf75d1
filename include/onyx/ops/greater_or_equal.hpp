// ops::GreaterOrEqual: C = A >= B elementwise with numpy broadcasting; C is bool.
// Opsets 12-latest (16 added bfloat16).
// Kernel (kernels/cpu/greater_or_equal.hpp): every listed type; half types in float.
// Inference computes small int64/int32/float32 results.
// Tested in test/unit/comparison_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct GreaterOrEqual : binary_predicate<"GreaterOrEqual", 12, dtypes::numeric, std::greater_equal<>> {};

}  // namespace onyx::ops
