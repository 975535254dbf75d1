// ops::fused::ConvIntegerToFloat (domain onyx.fused): an 8-bit convolution
// whose result leaves in float, the convolution twin of com.microsoft
// MatMulIntegerToFloat (same input order):
//   Y = float(ConvInteger(X, W, x_zero_point, w_zero_point)) * (x_scale * w_scale[m]) + B[m]
// X uint8/int8 [N, C, D1..]; W int8/uint8 [M, C/group, k1..]; x_scale a float
// scalar; w_scale a float scalar or one per output channel [M]; zero points
// (optional) of X's / W's type, x's a scalar, w's a scalar or [M]; B
// (optional) float [M]. Conv's attributes and shape rule; Y float32.
// Made by graph/passes/fuse_qdq.hpp from a QDQ Conv whose output is read in
// float (no QuantizeLinear after it: an elementwise region that onyx-quantize
// leaves in float reads it). Kernel: kernels/cpu/dynamic_quantize_gemm.hpp.
// Tested in test/unit/fuse_qdq_test.cpp.
#pragma once

#include "onyx/ops/conv.hpp"
#include "onyx/ops/detail/quantized.hpp"

namespace onyx::ops::fused {

/// The tail both float-output 8-bit convolutions share: w_scale, w_zero_point
/// and B scalars or one per output channel (W's dim 0), then Conv's shape
/// rule on X and W seen as float, Y float32.
inline status float_conv_infer(const ops::Conv::attributes& a, infer_context& c, int w_scale, int w_zero, int bias) {
  const sym_shape& w = c.input_shape(1);
  const dim m = w.rank_known ? w[0] : dim::unknown();
  ONYX_TRY(ops::detail::require_scalar_or_vector(c, w_scale, m, "w_scale"));
  ONYX_TRY(ops::detail::require_scalar_or_vector(c, w_zero, m, "w_zero_point"));
  ONYX_TRY(ops::detail::require_scalar_or_vector(c, bias, m, "B"));
  ops::detail::retyped_context r(c, {0, 1}, dtype::float32);
  return ops::detail::conv_infer(a, r, dtypes::f32);
}

struct ConvIntegerToFloat {
  static constexpr std::string_view domain = "onyx.fused", name = "ConvIntegerToFloat";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{4, 7}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::u8 | dtypes::i8, T2 = dtypes::i8 | dtypes::u8, TS = dtypes::f32;
  static constexpr std::array signature{in(1)};  // kernels keyed by the weights' type
  using attributes = ops::Conv::attributes;
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    for (int i : {2, 3, 6})
      if (c.has_input(i)) ONYX_TRY(require_type(c, i, TS, "T3"));
    if (c.has_input(4) && c.input_type(4) != c.input_type(0)) return c.fail("x_zero_point must have X's type");
    if (c.has_input(5) && c.input_type(5) != c.input_type(1)) return c.fail("w_zero_point must have W's type");
    ONYX_TRY(ops::detail::require_scalar_or_vector(c, 2, dim(1), "x_scale"));
    ONYX_TRY(ops::detail::require_scalar_or_vector(c, 4, dim(1), "x_zero_point"));
    return float_conv_infer(a, c, 3, 5, 6);
  }
};

}  // namespace onyx::ops::fused
