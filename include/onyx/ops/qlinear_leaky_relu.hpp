// ops::QLinearLeakyRelu (com.microsoft): with x = X_scale (X - X_zp), Y =
// saturate(round((x < 0 ? alpha x : x) / Y_scale) + Y_zp) (alpha = 0.01),
// rounding to nearest even; scales are float32 scalars, zero points optional
// scalars of T (0 when absent). Opset 1 of com.microsoft. Kernel
// (kernels/cpu/qlinear_lookup.hpp): uint8, int8, through a 256-entry table
// built per call. Tested in test/unit/qlinear_contrib_test.cpp.
#pragma once

#include "onyx/ops/detail/qlinear.hpp"

namespace onyx::ops {

struct QLinearLeakyRelu {
  static constexpr std::string_view domain = "com.microsoft", name = "QLinearLeakyRelu";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{4, 5, positions(2)}, outputs{1, 1};
  static constexpr dtype_set T = detail::qlinear_8bit;
  struct attributes {
    float alpha = 0.01f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}};
  };
  static status infer(const attributes&, infer_context& c) { return detail::infer_qlinear_unary(c); }
};

}  // namespace onyx::ops
