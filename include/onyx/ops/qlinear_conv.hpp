// ops::QLinearConv: y = saturate(round((conv(x - x_zp, w - w_zp) + B) *
// x_scale * w_scale / y_scale) + y_zp), with Conv's attributes and shape
// rules. w_scale and w_zero_point are scalars or one per output channel;
// B (optional) is int32 per output channel. The integer convolution is exact;
// the factor x_scale * w_scale / y_scale is rounded to float32.
// Opsets 10-latest. Kernel (kernels/cpu/integer_conv.hpp): int8/uint8.
// Tested in test/unit/integer_conv_test.cpp.
#pragma once

#include "onyx/ops/conv.hpp"
#include "onyx/ops/detail/quantized.hpp"

namespace onyx::ops {

struct QLinearConv {
  static constexpr std::string_view domain = "", name = "QLinearConv";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{8, 9, positions(2, 5, 7)}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8, T2 = T1, T3 = T1, T4 = dtypes::i32;
  using attributes = Conv::attributes;
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 3, T2, "T2"));
    ONYX_TRY(require_type(c, 7, T3, "T3"));
    for (int i : {1, 4, 6}) ONYX_TRY(require_type(c, i, dtypes::f32, "tensor(float)"));
    if (c.input_type(2) != c.input_type(0) || c.input_type(5) != c.input_type(3))
      return c.fail("x_zero_point and w_zero_point must have the types of x and w");
    if (c.input_count() > 8 && c.has_input(8)) ONYX_TRY(require_type(c, 8, T4, "T4"));
    detail::retyped_context r(c, {0, 3}, c.input_type(7));
    ONYX_TRY(detail::conv_infer(a, r, dtypes::f32));
    const sym_shape& w = c.input_shape(3);
    dim m = w.rank_known ? w[0] : dim::unknown();
    for (int i : {1, 2, 6, 7}) ONYX_TRY(detail::require_scalar_or_vector(c, i, dim(1), "x/y scale or zero point"));
    for (int i : {4, 5}) ONYX_TRY(detail::require_scalar_or_vector(c, i, m, i == 4 ? "w_scale" : "w_zero_point"));
    return detail::require_scalar_or_vector(c, 8, m, "B");
  }
};

}  // namespace onyx::ops
