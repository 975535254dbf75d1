// ops::Swish: y = x * sigmoid(alpha * x) (alpha = 1).
// Opsets 24-latest. Kernel (kernels/cpu/swish.hpp): float32, float64,
// float16 and bfloat16 (in float). Tested in test/unit/misc_elementwise_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Swish {
  static constexpr std::string_view domain = "", name = "Swish";
  static constexpr int since = 24, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1.0f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}};
  };
  static status infer(const attributes&, infer_context& c) { return infer_unary(c, T, "T"); }
};

}  // namespace onyx::ops
