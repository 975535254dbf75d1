// ops::QLinearMatMul: y = saturate(round((a - a_zp) @ (b - b_zp) *
// a_scale * b_scale / y_scale) + y_zp), numpy matmul shapes. Scales and zero
// points of a are scalars or per row ([M]), of b scalars or per column
// ([N]), of y scalars. The integer product is exact; the factor
// a_scale * b_scale / y_scale is rounded to float32 as the reference does.
// Opsets 10-latest (21 added float8 operands and float16/bfloat16 scales).
// Kernel (kernels/cpu/mat_mul_integer.hpp): int8/uint8 and float8 operands
// decoded by the Cast codecs. Tested in test/unit/mat_mul_integer_test.cpp.
#pragma once

#include "onyx/ops/detail/quantized.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::ops {

struct QLinearMatMul {
  static constexpr std::string_view domain = "", name = "QLinearMatMul";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{8, 8, positions(2, 5, 7)}, outputs{1, 1};
  static constexpr dtype_set TS = dtypes::f32 | dtypes::f16 | dtypes::bf16;
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8 | dtypes::float8, T2 = T1, T3 = T1;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 3, T2, "T2"));
    ONYX_TRY(require_type(c, 7, T3, "T3"));
    for (int i : {1, 4, 6}) ONYX_TRY(require_type(c, i, TS, "TS"));
    if (c.input_type(2) != c.input_type(0) || c.input_type(5) != c.input_type(3))
      return c.fail("a_zero_point and b_zero_point must have the types of a and b");
    detail::retyped_context r(c, {0, 3}, c.input_type(7));
    ONYX_TRY(MatMul::infer({}, r));
    const sym_shape& a = c.input_shape(0);
    const sym_shape& b = c.input_shape(3);
    dim m = a.rank_known && a.rank() >= 2 ? a[a.rank() - 2] : dim::unknown();
    dim n = b.rank_known && b.rank() >= 2 ? b[b.rank() - 1] : dim::unknown();
    for (int i : {1, 2}) ONYX_TRY(detail::require_scalar_or_vector(c, i, m, i == 1 ? "a_scale" : "a_zero_point"));
    for (int i : {4, 5}) ONYX_TRY(detail::require_scalar_or_vector(c, i, n, i == 4 ? "b_scale" : "b_zero_point"));
    for (int i : {6, 7}) ONYX_TRY(detail::require_scalar_or_vector(c, i, dim(1), i == 6 ? "y_scale" : "y_zero_point"));
    return ok();
  }
};

}  // namespace onyx::ops
