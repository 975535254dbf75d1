// ops::LogSoftmax: y = x - max - log(sum exp(x - max)), along one axis (default -1).
// Opsets 13-latest; opsets 1-12 (input coerced to 2-D) are ops::LogSoftmax_v1.
// Kernel: float16/32/64, bfloat16 (float16 and bfloat16 compute in float).
// Tested in test/unit/softmax_test.cpp.
#pragma once

#include "onyx/ops/detail/softmax.hpp"

namespace onyx::ops {

struct LogSoftmax : detail::softmax_op<"LogSoftmax"> {};

// Opsets 1-12: coerced to 2-D at `axis` (default 1; dims before it form the rows);
// expanded into Flatten(axis) -> LogSoftmax(axis=-1) -> Reshape(Shape(input)).
struct LogSoftmax_v1 : detail::softmax_v1_op<"LogSoftmax"> {};

}  // namespace onyx::ops
