// ops::Div: C = A / B with numpy broadcasting.
// Integer division truncates toward zero; an integer division by zero
// gives 0 (the spec leaves it undefined).
// Opsets 7-latest (7 introduced numpy broadcasting; 13 added bfloat16, 14 the
// 8/16-bit integers). Opsets 1-6 (legacy `broadcast`/`axis` attributes):
// ops::Div_v1, expanded into this op (ops/detail/legacy_broadcast.hpp).
// Kernel (kernels/cpu/div.hpp): every numeric type; float16/bfloat16
// computed in float. Inference computes small int64/int32/float32 results.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

namespace detail {
/// a / b as inference computes it: an integer divided by 0 gives 0, and by -1
/// negates with wrap-around (no trap on the smallest value).
struct divide {
  template <class X>
  constexpr X operator()(X a, X b) const {
    if constexpr (std::is_integral_v<X>) {
      if (b == 0) return X{};
      if (b == -1) return static_cast<X>(0 - static_cast<std::make_unsigned_t<X>>(a));
    }
    return static_cast<X>(a / b);
  }
};
}  // namespace detail

struct Div : binary<"Div", 7, dtypes::numeric, detail::divide> {};

struct Div_v1 : detail::legacy_broadcast_op<"Div", detail::legacy_arithmetic_types> {};

}  // namespace onyx::ops
