// ops::CumProd: cumulative products of x along the axis given by input 1
// (inclusive, or `exclusive` = 1: the j-th output excludes the j-th input;
// `reverse` = 1 runs from the end).
// Opsets 26-latest. Kernel (kernels/cpu/cumulative.hpp):
// uint32, uint64, int32, int64, float32, float64; float16/bfloat16
// accumulate in float. Tested in test/unit/cumulative_test.cpp.
#pragma once

#include "onyx/ops/detail/cumulative.hpp"

namespace onyx::ops {

struct CumProd {
  static constexpr std::string_view domain = "", name = "CumProd";
  static constexpr int since = 26, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = detail::cumulative_types;
  static constexpr dtype_set T2 = dtypes::indices;
  using attributes = detail::cumulative_attributes;
  static status infer(const attributes&, infer_context& c) { return detail::cumulative_infer(c); }
};

}  // namespace onyx::ops
