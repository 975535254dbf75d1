// ops::Min: elementwise minimum of all inputs, with numpy broadcasting.
// Opsets 1-latest (8 introduced broadcasting, a superset of the same-shape rule
// of 1-7; 12 added integer types). NaN propagates: min(NaN, x) = NaN.
// Kernel (kernels/cpu/min.hpp): every numeric type. Tested in
// test/unit/variadic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

namespace detail {
/// min(a, b) as inference computes it (a NaN in a propagates).
struct smaller {
  template <class X>
  constexpr X operator()(X a, X b) const {
    return b < a ? b : a;
  }
};
}  // namespace detail

struct Min : variadic_op<"Min", dtypes::numeric, detail::smaller> {};

}  // namespace onyx::ops
