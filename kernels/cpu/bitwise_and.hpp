// kernel<ops::BitwiseAnd, cpu>: c = a & b with broadcasting, every integer type.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/bitwise_and.hpp"

namespace onyx {

namespace kernels::cpu {
struct bitwise_and_fn {
  template <class X>
  X operator()(X a, X b) const {
    return static_cast<X>(a & b);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::BitwiseAnd, cpu>
    : kernels::cpu::binary_kernel<ops::BitwiseAnd, kernels::cpu::bitwise_and_fn, ops::BitwiseAnd::T> {};

}  // namespace onyx
