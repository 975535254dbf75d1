// ops::Or: C = A || B elementwise on bool tensors with numpy broadcasting.
// Opsets 7-latest (1-6, with legacy `broadcast`/`axis` attributes, are not supported).
// Kernel (kernels/cpu/or.hpp). Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Or : binary_predicate<"Or", 7, dtypes::boolean> {};

}  // namespace onyx::ops
