// kernel<ops::Xor, cpu>: c = a != b with broadcasting, bool output.
// bool tensors.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/xor.hpp"

namespace onyx {

namespace kernels::cpu {
struct exclusive_or_fn {
  template <class X> bool operator()(const X& a, const X& b) const { return a != b; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Xor, cpu> : kernels::cpu::predicate_kernel<ops::Xor, kernels::cpu::exclusive_or_fn, ops::Xor::T> {};

}  // namespace onyx
