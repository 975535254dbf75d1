// kernel<ops::BitwiseNot, cpu>: y = ~x, every integer type.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/bitwise_not.hpp"

namespace onyx {

namespace kernels::cpu {
struct bitwise_not_fn {
  template <class X>
  X operator()(X x) const {
    return static_cast<X>(~x);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::BitwiseNot, cpu>
    : kernels::cpu::unary_kernel<ops::BitwiseNot, kernels::cpu::bitwise_not_fn, ops::BitwiseNot::T> {};

}  // namespace onyx
