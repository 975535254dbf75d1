// ops::QGemm (com.microsoft, opset 1): Gemm on 8-bit operands, as ORT's
// quantizer writes it for a Gemm in QOperator format.
//   acc[i][j] = sum_k (A'[i][k] - a_zero_point) (B'[k][j] - b_zero_point[j]) + C[i][j]   (exact, int32)
//   Y = float(acc) * alpha a_scale b_scale[j]                                    no y_scale: float32
//   Y = saturate(round_half_even(acc * alpha a_scale b_scale[j] / y_scale) + y_zero_point)   else
// A' = A, or A^T with transA (A [M, K] or [K, M]); B' likewise with transB
// (B [K, N] or [N, K]). A, B uint8 or int8; a_scale a float scalar,
// a_zero_point A's type, a scalar; b_scale a float scalar or [N],
// b_zero_point (optional, 0) B's type, a scalar or [N]; C (optional) int32,
// unidirectionally broadcastable to [M, N] (quantized at scale
// alpha a_scale b_scale, zero point 0); y_scale a float scalar and
// y_zero_point a uint8 / int8 scalar, given together (Y is then of
// y_zero_point's type) or not at all (Y float32). Kernel:
// kernels/cpu/mat_mul_integer.hpp (the int8 GEMM, a constant B packed once).
// Tested in test/unit/mat_mul_integer_test.cpp.
#pragma once

#include "onyx/ops/detail/quantized.hpp"
#include "onyx/ops/gemm.hpp"

namespace onyx::ops {

struct QGemm {
  static constexpr std::string_view domain = "com.microsoft", name = "QGemm";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{6, 9, positions(5, 6, 7, 8)}, outputs{1, 1};
  static constexpr dtype_set TA = dtypes::i8 | dtypes::u8, TB = TA, TYZ = TA;
  struct attributes {
    float alpha = 1.0f;
    std::int64_t transA = 0;
    std::int64_t transB = 0;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}, field{"transA", &attributes::transA},
                                              field{"transB", &attributes::transB}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, TA, "TA"));
    ONYX_TRY(require_type(c, 3, TB, "TB"));
    for (int i : {1, 4}) ONYX_TRY(require_type(c, i, dtypes::f32, "T"));
    if (c.input_type(2) != c.input_type(0)) return c.fail("a_zero_point must have A's type");
    if (c.has_input(5) && c.input_type(5) != c.input_type(3)) return c.fail("b_zero_point must have B's type");
    if (c.has_input(6)) ONYX_TRY(require_type(c, 6, dtypes::i32, "TC"));
    const bool quantized = c.has_input(7);
    if (quantized != c.has_input(8))
      return c.fail("y_scale and y_zero_point come together (a quantized Y) or not at all (a float32 Y)");
    if (quantized) {
      ONYX_TRY(require_type(c, 7, dtypes::f32, "T"));
      ONYX_TRY(require_type(c, 8, TYZ, "TYZ"));
    }
    // Gemm's shape rule on the operands as if they were float (C's broadcast included).
    detail::retyped_context r(c, {0, 3, 6}, quantized ? c.input_type(8) : dtype::float32);
    ONYX_TRY(Gemm::infer({a.alpha, 1.0f, a.transA, a.transB}, r));
    const sym_shape& B = c.input_shape(3);
    const dim n = B.rank_known && B.rank() == 2 ? B[a.transB ? 0 : 1] : dim::unknown();
    for (int i : {1, 2}) ONYX_TRY(detail::require_scalar_or_vector(c, i, dim(1), i == 1 ? "a_scale" : "a_zero_point"));
    for (int i : {4, 5}) ONYX_TRY(detail::require_scalar_or_vector(c, i, n, i == 4 ? "b_scale" : "b_zero_point"));
    for (int i : {7, 8}) ONYX_TRY(detail::require_scalar_or_vector(c, i, dim(1), i == 7 ? "y_scale" : "y_zero_point"));
    return ok();
  }
};

}  // namespace onyx::ops
