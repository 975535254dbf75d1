// ops::Elu: y = x < 0 ? alpha * (e^x - 1) : x (alpha = 1).
// Opsets 1-latest (6 dropped consumed_inputs, 22 added bfloat16).
// Kernel (kernels/cpu/elu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Elu {
  static constexpr std::string_view domain = "", name = "Elu";
  static constexpr int since = 1, until = latest;
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
