// ops::Exp: y = e^x.
// Opsets 1-latest (6 dropped consumed_inputs, 13 added bfloat16).
// Kernel (kernels/cpu/exp.hpp): every listed type; half types in float; float32 through the ISA micro-kernel
// isa::f32_exp. Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Exp : unary<"Exp", 1, dtypes::floats> {};

}  // namespace onyx::ops
