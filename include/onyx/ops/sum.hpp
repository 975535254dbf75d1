// ops::Sum: elementwise sum of all inputs, with numpy broadcasting.
// Opsets 1-latest (8 introduced broadcasting, a superset of the same-shape rule
// of 1-7; the `consumed_inputs` attribute of opset 1 is ignored).
// Kernel (kernels/cpu/sum.hpp): float32, float64, float16, bfloat16 (the last
// two computed in float). Tested in test/unit/variadic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Sum : variadic_op<"Sum", dtypes::floats> {};

}  // namespace onyx::ops
