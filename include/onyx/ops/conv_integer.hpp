// ops::ConvInteger: Y = conv(X - x_zero_point, W - w_zero_point) in int32,
// with Conv's attributes and shape rules (ops::Conv). x_zero_point is a
// scalar; w_zero_point a scalar or one per output channel ([M]).
// Opsets 10-latest. Kernel (kernels/cpu/integer_conv.hpp): int8/uint8 in any
// combination, a direct loop accumulating exactly.
// Tested in test/unit/integer_conv_test.cpp.
#pragma once

#include "onyx/ops/conv.hpp"
#include "onyx/ops/detail/quantized.hpp"

namespace onyx::ops {

struct ConvInteger {
  static constexpr std::string_view domain = "", name = "ConvInteger";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8, T2 = dtypes::i8 | dtypes::u8, T3 = dtypes::i32;
  using attributes = Conv::attributes;
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    for (int i : {2, 3})
      if (i < c.input_count() && c.has_input(i) && c.input_type(i) != c.input_type(i - 2))
        return c.fail("zero point " + std::to_string(i) + " must have its tensor's type");
    detail::retyped_context r(c, {0, 1}, dtype::int32);
    ONYX_TRY(detail::conv_infer(a, r, dtypes::f32));
    const sym_shape& w = c.input_shape(1);
    ONYX_TRY(detail::require_scalar_or_vector(c, 2, dim(1), "x_zero_point"));
    return detail::require_scalar_or_vector(c, 3, w.rank_known ? w[0] : dim::unknown(), "w_zero_point");
  }
};

}  // namespace onyx::ops
