// kernel<ops::GreaterOrEqual, cpu>: c = a >= b with broadcasting, bool output.
// every listed type (strings too for Equal); half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/greater_or_equal.hpp"

namespace onyx {

namespace kernels::cpu {
struct greater_or_equal_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a >= b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::GreaterOrEqual, cpu> : kernels::cpu::predicate_kernel<ops::GreaterOrEqual, kernels::cpu::greater_or_equal_fn, ops::GreaterOrEqual::T> {};

}  // namespace onyx
