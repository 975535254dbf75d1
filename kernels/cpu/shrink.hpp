// kernel<ops::Shrink, cpu>: y = x < -lambd ? x + bias : x > lambd ? x - bias : 0,
// in double per element.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/shrink.hpp"

namespace onyx {

namespace kernels::cpu {
struct shrink_fn {
  double lambd, bias;
  explicit shrink_fn(const ops::Shrink::attributes& a) : lambd(a.lambd), bias(a.bias) {}
  template <class X> X operator()(X x) const {
    double v = static_cast<double>(x);
    return static_cast<X>(v < -lambd ? v + bias : v > lambd ? v - bias : 0.0);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Shrink, cpu> : kernels::cpu::unary_kernel<ops::Shrink, kernels::cpu::shrink_fn, ops::Shrink::T> {};

}  // namespace onyx
