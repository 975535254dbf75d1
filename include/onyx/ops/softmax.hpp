// ops::Softmax: y = exp(x - max) / sum exp(x - max), along one axis (default -1).
// Opsets 13-latest; opsets 1-12 (input coerced to 2-D) are ops::Softmax_v1.
// Kernel: float16/32/64, bfloat16 (float16 and bfloat16 compute in float).
// Tested in test/unit/softmax_test.cpp.
#pragma once

#include "onyx/ops/detail/softmax.hpp"

namespace onyx::ops {

struct Softmax : detail::softmax_op<"Softmax"> {};

// Opsets 1-12: coerced to 2-D at `axis` (default 1; dims before it form the rows);
// expanded into Flatten(axis) -> Softmax(axis=-1) -> Reshape(Shape(input)).
struct Softmax_v1 : detail::softmax_v1_op<"Softmax"> {};

}  // namespace onyx::ops
