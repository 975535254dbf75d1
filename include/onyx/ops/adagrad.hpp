// ops::Adagrad (ai.onnx.preview.training, opset 1): one ADAGRAD step over n
// tensors. Inputs R, T, X1..Xn, G1..Gn, H1..Hn; outputs X1_new..Xn_new,
// H1_new..Hn_new, where, elementwise,
//   r = R / (1 + T * decay_factor),  g = norm_coefficient * X + G,
//   H_new = H + g * g,  X_new = X - r * g / (sqrt(H_new) + epsilon).
// float32 and float64 (R and the tensors independently). Kernel:
// kernels/cpu/adagrad.hpp. Tested in test/unit/optimizer_test.cpp.
#pragma once

#include "onyx/ops/detail/optimizer.hpp"

namespace onyx::ops {

struct Adagrad {
  static constexpr std::string_view domain = "ai.onnx.preview.training", name = "Adagrad";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, variadic}, outputs{2, variadic};
  static constexpr dtype_set T1 = detail::optimizer_floats, T3 = detail::optimizer_floats;
  static constexpr std::array signature{in(0), in(2)};
  struct attributes {
    float decay_factor = 0.0f, epsilon = 0.0f, norm_coefficient = 0.0f;
    static constexpr auto fields =
        std::tuple{field{"decay_factor", &attributes::decay_factor}, field{"epsilon", &attributes::epsilon},
                   field{"norm_coefficient", &attributes::norm_coefficient}};
  };
  static status infer(const attributes&, infer_context& c) { return detail::optimizer_infer(c, 3, 2); }
};

}  // namespace onyx::ops
