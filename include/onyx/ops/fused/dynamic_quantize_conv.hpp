// ops::fused::DynamicQuantizeConv (domain onyx.fused): a float Conv against
// 8-bit weights, quantizing X on the fly, the convolution twin of
// com.microsoft DynamicQuantizeMatMul:
//   (X_q, x_scale, x_zero_point) = DynamicQuantizeLinear(X)
//   Y = ConvInteger(X_q, W, x_zero_point, w_zero_point) * (x_scale * w_scale[m]) + B[m]
// X float [N, C, D1..]; W int8/uint8 [M, C/group, k1..]; w_scale a float
// scalar or one per output channel [M]; w_zero_point (optional) W's type,
// scalar or [M]; B (optional) float [M]. Conv's attributes and shape rule.
// Made by graph/passes/fuse_quantized.hpp from the chain ORT's quantize_dynamic
// writes for a Conv (DynamicQuantizeLinear -> ConvInteger -> Cast -> Mul by
// the scales' product [-> Add bias]), rounding as that chain does.
// Kernel: kernels/cpu/dynamic_quantize_gemm.hpp. Tested in test/unit/fuse_quantized_test.cpp.
#pragma once

#include "onyx/ops/fused/conv_integer_to_float.hpp"

namespace onyx::ops::fused {

struct DynamicQuantizeConv {
  static constexpr std::string_view domain = "onyx.fused", name = "DynamicQuantizeConv";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{3, 5}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::f32, T2 = dtypes::i8 | dtypes::u8;
  static constexpr std::array signature{in(1)};  // kernels keyed by the weights' type
  using attributes = ops::Conv::attributes;
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    ONYX_TRY(require_type(c, 2, T1, "T1"));
    if (c.has_input(3) && c.input_type(3) != c.input_type(1)) return c.fail("w_zero_point must have W's type");
    if (c.has_input(4)) ONYX_TRY(require_type(c, 4, T1, "T1"));
    return float_conv_infer(a, c, 2, 3, 4);
  }
};

}  // namespace onyx::ops::fused
