// ops::Gelu: y = x * Phi(x), Phi the standard normal CDF:
//   approximate = "none": y = x/2 * (1 + erf(x / sqrt 2))
//   approximate = "tanh": y = x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
// Opsets 20-latest. Kernel (kernels/cpu/gelu.hpp): float32 (through the ISA
// erf/tanh micro-kernels), float64, float16/bfloat16 (in float).
// Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Gelu {
  static constexpr std::string_view domain = "", name = "Gelu";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::string approximate = "none";
    static constexpr auto fields = std::tuple{field{"approximate", &attributes::approximate}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.approximate != "none" && a.approximate != "tanh")
      return c.fail("approximate must be \"none\" or \"tanh\", got \"" + a.approximate + "\"");
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
