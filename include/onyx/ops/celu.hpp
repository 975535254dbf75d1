// ops::Celu: y = max(0, x) + min(0, alpha * (e^(x / alpha) - 1)) (alpha = 1).
// Opsets 12-latest (unchanged; the spec lists float32 only, the kernel takes every float type).
// Kernel (kernels/cpu/celu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Celu : alpha_activation<"Celu", 12> {};

}  // namespace onyx::ops
