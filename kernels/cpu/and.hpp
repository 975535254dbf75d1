// kernel<ops::And, cpu>: c = a && b with broadcasting, bool output.
// bool tensors.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/and.hpp"

namespace onyx {

namespace kernels::cpu {
struct logical_and_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a && b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::And, cpu> : kernels::cpu::predicate_kernel<ops::And, kernels::cpu::logical_and_fn, ops::And::T> {};

}  // namespace onyx
