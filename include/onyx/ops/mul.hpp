// ops::Mul: C = A * B with numpy broadcasting.
// Opsets 7-latest (7 introduced numpy broadcasting; 13 added bfloat16, 14 the
// 8/16-bit integers). Opsets 1-6 (legacy `broadcast`/`axis` attributes):
// ops::Mul_v1, expanded into this op (ops/detail/legacy_broadcast.hpp).
// Kernel (kernels/cpu/mul.hpp): every numeric type; float16/bfloat16
// computed in float. Inference computes small int64/int32/float32 results.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Mul : binary<"Mul", 7, dtypes::numeric, std::multiplies<>> {};

struct Mul_v1 : detail::legacy_broadcast_op<"Mul", detail::legacy_arithmetic_types> {};

}  // namespace onyx::ops
