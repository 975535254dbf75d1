// ops::Selu: y = gamma * (x > 0 ? x : alpha * (e^x - 1)) (alpha ~ 1.6733, gamma ~ 1.0507).
// Opsets 1-latest (6 dropped consumed_inputs, 22 added bfloat16).
// Kernel (kernels/cpu/selu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Selu {
  static constexpr std::string_view domain = "", name = "Selu";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1.67326319217681884765625f;
    float gamma = 1.05070102214813232421875f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}, field{"gamma", &attributes::gamma}};
  };
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
