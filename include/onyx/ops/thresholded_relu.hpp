// ops::ThresholdedRelu: y = x > alpha ? x : 0 (alpha = 1).
// Opsets 10-latest (22 added bfloat16).
// Kernel (kernels/cpu/thresholded_relu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct ThresholdedRelu {
  static constexpr std::string_view domain = "", name = "ThresholdedRelu";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1.0f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}};
  };
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
