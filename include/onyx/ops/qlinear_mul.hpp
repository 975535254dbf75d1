// ops::QLinearMul (com.microsoft): C = saturate(round(A_scale (A - A_zp) *
// B_scale (B - B_zp) / C_scale) + C_zp) with numpy broadcasting, rounding to
// nearest even; scales are float32 scalars, zero points optional scalars of
// T (0 when absent). Opset 1 of com.microsoft. Kernel
// (kernels/cpu/qlinear_binary.hpp): uint8, int8; the integer product (a -
// A_zp)(b - B_zp) is exact and scaled once by A_scale B_scale / C_scale, C_zp
// added before rounding as ONNX Runtime's x86 kernel does.
// Tested in test/unit/qlinear_contrib_test.cpp.
#pragma once

#include "onyx/ops/detail/qlinear.hpp"

namespace onyx::ops {

struct QLinearMul {
  static constexpr std::string_view domain = "com.microsoft", name = "QLinearMul";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{7, 8, positions(2, 5)}, outputs{1, 1};
  static constexpr dtype_set T = detail::qlinear_8bit;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) { return detail::infer_qlinear_binary(c); }
};

}  // namespace onyx::ops
