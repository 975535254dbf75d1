// ops::MatMulIntegerToFloat (com.microsoft, opset 1): an 8-bit matmul with
// its result dequantized,
//   Y = (A - a_zero_point) @ (B - b_zero_point) * (a_scale * b_scale) + bias
// A uint8/int8 [..., M, K]; B uint8/int8 [K, N] (or batched like MatMul);
// a_scale a float scalar; b_scale a float scalar or [N]; the zero points
// (optional) scalars of their matrix's type, b_zero_point also [N]; bias
// (optional) float [N]. ORT emits it when it fuses a dynamically quantized
// MatMul. Kernel (kernels/cpu/dynamic_quantize_gemm.hpp): the int8 GEMM, then
// y = float(acc) * float(a_scale * b_scale[j]) + bias[j] per finished block.
// Tested in test/unit/mat_mul_integer_to_float_test.cpp.
#pragma once

#include "onyx/ops/detail/quantized.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::ops {

struct MatMulIntegerToFloat {
  static constexpr std::string_view domain = "com.microsoft", name = "MatMulIntegerToFloat";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{4, 7}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8, T2 = dtypes::i8 | dtypes::u8, T3 = dtypes::f32;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    ONYX_TRY(require_type(c, 2, T3, "T3"));
    ONYX_TRY(require_type(c, 3, T3, "T3"));
    if (c.has_input(4) && c.input_type(4) != c.input_type(0)) return c.fail("a_zero_point must have A's type");
    if (c.has_input(5) && c.input_type(5) != c.input_type(1)) return c.fail("b_zero_point must have B's type");
    if (c.has_input(6)) ONYX_TRY(require_type(c, 6, T3, "T3"));
    const sym_shape& b = c.input_shape(1);
    const dim n = b.rank_known && b.rank() >= 2 ? b[b.rank() - 1] : dim::unknown();
    ONYX_TRY(detail::require_scalar_or_vector(c, 2, dim(1), "a_scale"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 3, n, "b_scale"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 4, dim(1), "a_zero_point"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 5, n, "b_zero_point"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 6, n, "bias"));
    detail::retyped_context r(c, {0, 1}, dtype::float32);
    return MatMul::infer({}, r);
  }
};

}  // namespace onyx::ops
