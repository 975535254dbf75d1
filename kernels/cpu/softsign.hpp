// kernel<ops::Softsign, cpu>: y = x / (1 + |x|).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/softsign.hpp"

namespace onyx {

namespace kernels::cpu {
struct softsign_fn {
  template <class X> X operator()(X x) const { return x / (X(1) + std::abs(x)); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Softsign, cpu> : kernels::cpu::unary_kernel<ops::Softsign, kernels::cpu::softsign_fn, ops::Softsign::T> {};

}  // namespace onyx
