// ops::ThresholdedRelu: y = x > alpha ? x : 0 (alpha = 1).
// Opsets 10-latest (22 added bfloat16).
// Kernel (kernels/cpu/thresholded_relu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct ThresholdedRelu : alpha_activation<"ThresholdedRelu", 10> {};

}  // namespace onyx::ops
