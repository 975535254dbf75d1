// ops::Less: C = A < B elementwise with numpy broadcasting; C is bool.
// Opsets 7-latest (9 added integers, 13 bfloat16; 1-6 with legacy broadcasting are not supported).
// Kernel (kernels/cpu/less.hpp): every listed type; half types in float.
// Inference computes small int64/int32/float32 results.
// Tested in test/unit/comparison_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Less : binary_predicate<"Less", 7, dtypes::numeric, std::less<>> {};

}  // namespace onyx::ops
