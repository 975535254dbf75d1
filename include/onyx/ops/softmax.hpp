// ops::Softmax: y = exp(x - max) / sum exp(x - max), along one axis (default -1).
// Opsets 13-latest; opsets 1-12 (input coerced to 2-D) are ops::Softmax_v1.
// Kernel: float16/32/64, bfloat16 (float16 and bfloat16 compute in float).
// Tested in test/unit/softmax_test.cpp.
#pragma once

#include "onyx/ops/detail/softmax.hpp"

namespace onyx::ops {

struct Softmax {
  static constexpr std::string_view domain = "", name = "Softmax";
  static constexpr int since = 13, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::int64_t axis = -1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::softmax_infer(a.axis, c, T); }
};

}  // namespace onyx::ops
