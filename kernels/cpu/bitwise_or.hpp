// kernel<ops::BitwiseOr, cpu>: c = a | b with broadcasting, every integer type.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/bitwise_or.hpp"

namespace onyx {

namespace kernels::cpu {
struct bitwise_or_fn {
  template <class X>
  X operator()(X a, X b) const {
    return static_cast<X>(a | b);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::BitwiseOr, cpu>
    : kernels::cpu::binary_kernel<ops::BitwiseOr, kernels::cpu::bitwise_or_fn, ops::BitwiseOr::T> {};

}  // namespace onyx
