// ops::DynamicQuantizeLinear: uint8 quantization of x with a scale and zero
// point computed from its range: with lo = min(0, min x), hi = max(0, max x),
// y_scale = (hi - lo) / 255 (1 / 255 when hi = lo), y_zero_point =
// round(clamp(-lo / y_scale, 0, 255)), y = saturate(round(x / y_scale) +
// y_zero_point); rounding to nearest even, all in float32 as the reference.
// Opsets 11-latest. Kernel (kernels/cpu/dynamic_quantize_linear.hpp): float32.
// Tested in test/unit/quantize_linear_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct DynamicQuantizeLinear {
  static constexpr std::string_view domain = "", name = "DynamicQuantizeLinear";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 1}, outputs{3, 3};
  static constexpr dtype_set T1 = dtypes::f32, T2 = dtypes::u8;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    c.set_output(0, dtype::uint8, c.input_shape(0));
    c.set_output(1, dtype::float32, sym_shape(std::vector<dim>{}));
    c.set_output(2, dtype::uint8, sym_shape(std::vector<dim>{}));
    return ok();
  }
};

}  // namespace onyx::ops
