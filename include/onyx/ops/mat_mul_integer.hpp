// ops::MatMulInteger: Y = (A - a_zero_point) @ (B - b_zero_point) in int32,
// numpy matmul shapes (ops::MatMul's rules). a_zero_point is a scalar or one
// per row of A ([M]); b_zero_point a scalar or one per column of B ([N]).
// Opsets 10-latest. Kernel (kernels/cpu/mat_mul_integer.hpp): int8/uint8 in
// any combination, a direct loop accumulating exactly.
// Tested in test/unit/mat_mul_integer_test.cpp.
#pragma once

#include "onyx/ops/detail/quantized.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::ops {

struct MatMulInteger {
  static constexpr std::string_view domain = "", name = "MatMulInteger";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8, T2 = dtypes::i8 | dtypes::u8, T3 = dtypes::i32;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    for (int i : {2, 3})
      if (i < c.input_count() && c.has_input(i) && c.input_type(i) != c.input_type(i - 2))
        return c.fail("zero point " + std::to_string(i) + " must have its matrix's type");
    detail::retyped_context r(c, {0, 1}, dtype::int32);
    ONYX_TRY(MatMul::infer({}, r));
    const sym_shape& a = c.input_shape(0);
    const sym_shape& b = c.input_shape(1);
    dim m = a.rank_known && a.rank() >= 2 ? a[a.rank() - 2] : dim::unknown();
    dim n = b.rank_known && b.rank() >= 2 ? b[b.rank() - 1] : dim::unknown();
    ONYX_TRY(detail::require_scalar_or_vector(c, 2, m, "a_zero_point"));
    return detail::require_scalar_or_vector(c, 3, n, "b_zero_point");
  }
};

}  // namespace onyx::ops
