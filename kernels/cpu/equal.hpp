// kernel<ops::Equal, cpu>: c = a == b with broadcasting, bool output.
// every listed type (strings too for Equal); half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/equal.hpp"

namespace onyx {

namespace kernels::cpu {
struct equal_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a == b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Equal, cpu> : kernels::cpu::predicate_kernel<ops::Equal, kernels::cpu::equal_fn, ops::Equal::T> {};

}  // namespace onyx
