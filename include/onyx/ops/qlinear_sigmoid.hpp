// ops::QLinearSigmoid (com.microsoft): Y = saturate(round(sigmoid(X_scale (X -
// X_zp)) / Y_scale) + Y_zp), rounding to nearest even; scales are float32
// scalars, zero points optional scalars of T (0 when absent). Opset 1 of
// com.microsoft. Kernel (kernels/cpu/qlinear_lookup.hpp): uint8, int8,
// through a 256-entry table built per call. Tested in
// test/unit/qlinear_contrib_test.cpp.
#pragma once

#include "onyx/ops/detail/qlinear.hpp"

namespace onyx::ops {

struct QLinearSigmoid {
  static constexpr std::string_view domain = "com.microsoft", name = "QLinearSigmoid";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{4, 5, positions(2)}, outputs{1, 1};
  static constexpr dtype_set T = detail::qlinear_8bit;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) { return detail::infer_qlinear_unary(c); }
};

}  // namespace onyx::ops
