// kernel<ops::Greater, cpu>: c = a > b with broadcasting, bool output.
// every listed type (strings too for Equal); half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/greater.hpp"

namespace onyx {

namespace kernels::cpu {
struct greater_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a > b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Greater, cpu> : kernels::cpu::predicate_kernel<ops::Greater, kernels::cpu::greater_fn, ops::Greater::T> {};

}  // namespace onyx
