// ops::HardSigmoid: y = clamp(alpha * x + beta, 0, 1) (alpha = 0.2, beta = 0.5).
// Opsets 1-latest (6 dropped consumed_inputs, 22 added bfloat16).
// Kernel (kernels/cpu/hard_sigmoid.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct HardSigmoid {
  static constexpr std::string_view domain = "", name = "HardSigmoid";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 0.2f;
    float beta = 0.5f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}, field{"beta", &attributes::beta}};
  };
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
