// ops::Momentum (ai.onnx.preview.training, opset 1): one step of SGD with
// momentum over n tensors. Inputs R, T, X1..Xn, G1..Gn, V1..Vn; outputs
// X1_new..Xn_new, V1_new..Vn_new, where, elementwise,
//   g = norm_coefficient * X + G,  b = T > 0 ? beta : 1,  V_new = alpha * V + b * g,
//   mode "standard":  X_new = X - R * V_new
//   mode "nesterov":  X_new = X - R * (g + alpha * V_new).
// float32 and float64. Kernel: kernels/cpu/momentum.hpp. Tested in
// test/unit/optimizer_test.cpp.
#pragma once

#include "onyx/ops/detail/optimizer.hpp"

namespace onyx::ops {

struct Momentum {
  static constexpr std::string_view domain = "ai.onnx.preview.training", name = "Momentum";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, variadic}, outputs{2, variadic};
  static constexpr dtype_set T1 = detail::optimizer_floats, T3 = detail::optimizer_floats;
  static constexpr std::array signature{in(0), in(2)};
  struct attributes {
    float alpha = 0.0f, beta = 0.0f, norm_coefficient = 0.0f;
    std::string mode;
    static constexpr auto fields = std::tuple{
        field{"alpha", &attributes::alpha, true}, field{"beta", &attributes::beta, true},
        field{"mode", &attributes::mode, true}, field{"norm_coefficient", &attributes::norm_coefficient, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.mode != "standard" && a.mode != "nesterov")
      return c.fail("mode '" + a.mode + "' is not \"standard\" or \"nesterov\"");
    return detail::optimizer_infer(c, 3, 2);
  }
};

}  // namespace onyx::ops
