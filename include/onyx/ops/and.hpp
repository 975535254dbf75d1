// ops::And: C = A && B elementwise on bool tensors with numpy broadcasting.
// Opsets 7-latest (1-6, with legacy `broadcast`/`axis` attributes, are not supported).
// Kernel (kernels/cpu/and.hpp). Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct And : binary_predicate<"And", 7, dtypes::boolean> {};

}  // namespace onyx::ops
