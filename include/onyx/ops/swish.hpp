// ops::Swish: y = x * sigmoid(alpha * x) (alpha = 1).
// Opsets 24-latest. Kernel (kernels/cpu/swish.hpp): float32, float64,
// float16 and bfloat16 (in float). Tested in test/unit/misc_elementwise_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Swish : alpha_activation<"Swish", 24> {};

}  // namespace onyx::ops
