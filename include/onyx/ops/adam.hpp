// ops::Adam (ai.onnx.preview.training, opset 1): one Adam step over n
// tensors. Inputs R, T, X1..Xn, G1..Gn, V1..Vn, H1..Hn; outputs
// X1_new..Xn_new, V1_new..Vn_new, H1_new..Hn_new, where, elementwise,
//   g = norm_coefficient * X + G,
//   V_new = alpha * V + (1 - alpha) * g,  H_new = beta * H + (1 - beta) * g * g,
//   r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R,
//   X_new = (1 - norm_coefficient_post) * (X - r * V_new / (sqrt(H_new) + epsilon)).
// float32 and float64. Kernel: kernels/cpu/adam.hpp. Tested in
// test/unit/optimizer_test.cpp.
#pragma once

#include "onyx/ops/detail/optimizer.hpp"

namespace onyx::ops {

struct Adam {
  static constexpr std::string_view domain = "ai.onnx.preview.training", name = "Adam";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{6, variadic}, outputs{3, variadic};
  static constexpr dtype_set T1 = detail::optimizer_floats, T3 = detail::optimizer_floats;
  static constexpr std::array signature{in(0), in(2)};
  struct attributes {
    float alpha = 0.9f, beta = 0.999f, epsilon = 0.0f, norm_coefficient = 0.0f, norm_coefficient_post = 0.0f;
    static constexpr auto fields =
        std::tuple{field{"alpha", &attributes::alpha}, field{"beta", &attributes::beta},
                   field{"epsilon", &attributes::epsilon}, field{"norm_coefficient", &attributes::norm_coefficient},
                   field{"norm_coefficient_post", &attributes::norm_coefficient_post}};
  };
  static status infer(const attributes&, infer_context& c) { return detail::optimizer_infer(c, 4, 3); }
};

}  // namespace onyx::ops
