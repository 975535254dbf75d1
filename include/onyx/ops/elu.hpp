// ops::Elu: y = x < 0 ? alpha * (e^x - 1) : x (alpha = 1).
// Opsets 1-latest (6 dropped consumed_inputs, 22 added bfloat16).
// Kernel (kernels/cpu/elu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Elu : alpha_activation<"Elu", 1> {};

}  // namespace onyx::ops
