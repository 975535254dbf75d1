// kernel<ops::BitwiseXor, cpu>: c = a ^ b with broadcasting, every integer type.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/bitwise_xor.hpp"

namespace onyx {

namespace kernels::cpu {
struct bitwise_xor_fn {
  template <class X>
  X operator()(X a, X b) const {
    return static_cast<X>(a ^ b);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::BitwiseXor, cpu>
    : kernels::cpu::binary_kernel<ops::BitwiseXor, kernels::cpu::bitwise_xor_fn, ops::BitwiseXor::T> {};

}  // namespace onyx
