// kernel<ops::IsInf, cpu>: y = (x is +inf and detect_positive) or (x is -inf and detect_negative), bool.
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/is_inf.hpp"

namespace onyx {

namespace kernels::cpu {
struct is_inf_fn {
  bool negative, positive;
  explicit is_inf_fn(const ops::IsInf::attributes& a) : negative(a.detect_negative != 0), positive(a.detect_positive != 0) {}
  template <class X> bool operator()(X x) const {
    return (x == std::numeric_limits<X>::infinity() && positive) || (x == -std::numeric_limits<X>::infinity() && negative);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::IsInf, cpu> : kernels::cpu::unary_kernel<ops::IsInf, kernels::cpu::is_inf_fn, ops::IsInf::T1, dtype::boolean> {};

}  // namespace onyx
