// kernel<ops::Or, cpu>: c = a || b with broadcasting, bool output.
// bool tensors.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/or.hpp"

namespace onyx {

namespace kernels::cpu {
struct logical_or_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a || b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Or, cpu> : kernels::cpu::predicate_kernel<ops::Or, kernels::cpu::logical_or_fn, ops::Or::T> {};

}  // namespace onyx
