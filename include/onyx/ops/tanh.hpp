// ops::Tanh: y = tanh(x).
// Opsets 1-latest (6 dropped consumed_inputs, 13 added bfloat16).
// Kernel (kernels/cpu/tanh.hpp): every listed type; half types in float; float32 through the ISA micro-kernel
// isa::f32_tanh. Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Tanh : unary<"Tanh", 1, dtypes::floats> {};

}  // namespace onyx::ops
