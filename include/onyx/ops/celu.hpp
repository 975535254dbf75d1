// ops::Celu: y = max(0, x) + min(0, alpha * (e^(x / alpha) - 1)) (alpha = 1).
// Opsets 12-latest (unchanged; the spec lists float32 only, the kernel takes every float type).
// Kernel (kernels/cpu/celu.hpp): every listed type; half types in float.
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Celu {
  static constexpr std::string_view domain = "", name = "Celu";
  static constexpr int since = 12, until = latest;
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
