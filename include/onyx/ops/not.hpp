// ops::Not: y = !x, bool.
// Opsets 1-latest (unchanged).
// Kernel (kernels/cpu/not.hpp): every listed type.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Not : unary<"Not", 1, dtypes::boolean> {};

}  // namespace onyx::ops
