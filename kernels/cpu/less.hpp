// kernel<ops::Less, cpu>: c = a < b with broadcasting, bool output.
// every listed type (strings too for Equal); half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/less.hpp"

namespace onyx {

namespace kernels::cpu {
struct less_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a < b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Less, cpu> : kernels::cpu::predicate_kernel<ops::Less, kernels::cpu::less_fn, ops::Less::T> {};

}  // namespace onyx
