// ops::Max: elementwise maximum of all inputs, with numpy broadcasting.
// Opsets 1-latest (8 introduced broadcasting, a superset of the same-shape rule
// of 1-7; 12 added integer types). NaN propagates: max(NaN, x) = NaN.
// Kernel (kernels/cpu/max.hpp): every numeric type. Tested in
// test/unit/variadic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

namespace detail {
/// max(a, b) as inference computes it (a NaN in a propagates).
struct larger {
  template <class X>
  constexpr X operator()(X a, X b) const {
    return a < b ? b : a;
  }
};
}  // namespace detail

struct Max : variadic_op<"Max", dtypes::numeric, detail::larger> {};

}  // namespace onyx::ops
