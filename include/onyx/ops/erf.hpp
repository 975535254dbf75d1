// ops::Erf: y = erf(x), the Gauss error function.
// Opsets 9-latest (13 added bfloat16).
// Kernel (kernels/cpu/erf.hpp): floats only (integer Erf is not supported); float32 through the ISA micro-kernel
// isa::f32_erf. Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Erf : unary<"Erf", 9, dtypes::numeric> {};

}  // namespace onyx::ops
