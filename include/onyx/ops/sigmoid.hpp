// ops::Sigmoid: y = 1 / (1 + e^-x).
// Opsets 1-latest (6 dropped consumed_inputs, 13 added bfloat16).
// Kernel (kernels/cpu/sigmoid.hpp): every listed type; half types in float; float32 through the ISA micro-kernel
// isa::f32_logistic. Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Sigmoid : unary<"Sigmoid", 1, dtypes::floats> {};

}  // namespace onyx::ops
