// ops::DynamicQuantizeMatMul (com.microsoft, opset 1): a float MatMul against
// 8-bit weights, quantizing A on the fly,
//   (A_q, a_scale, a_zero_point) = DynamicQuantizeLinear(A)
//   Y = (A_q - a_zero_point) @ (B - b_zero_point) * (a_scale * b_scale) + bias
// A float [..., M, K]; B int8/uint8 [K, N]; b_scale a float scalar or [N];
// b_zero_point (optional) B's type, scalar or [N]; bias (optional) float [N].
// Also what graph/passes/fuse_quantized.hpp makes of the chain ORT's
// quantize_dynamic writes for a MatMul (DynamicQuantizeLinear -> MatMulInteger
// -> Cast -> Mul by the scales' product [-> Add bias]); the kernel rounds as
// that chain does: y = float(float(acc) * float(a_scale * b_scale[j])) + bias[j].
// Kernel: kernels/cpu/dynamic_quantize_gemm.hpp (B packed once at prepare, the
// int8 GEMM of kernels/cpu/qgemm.hpp, scales and bias applied per block).
// Tested in test/unit/fuse_quantized_test.cpp.
#pragma once

#include "onyx/ops/detail/quantized.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::ops {

struct DynamicQuantizeMatMul {
  static constexpr std::string_view domain = "com.microsoft", name = "DynamicQuantizeMatMul";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{3, 5}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::f32, T2 = dtypes::i8 | dtypes::u8;
  static constexpr std::array signature{in(1)};  // kernels keyed by the weights' type
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    ONYX_TRY(require_type(c, 2, T1, "T1"));
    if (c.has_input(3) && c.input_type(3) != c.input_type(1)) return c.fail("b_zero_point must have B's type");
    if (c.has_input(4)) ONYX_TRY(require_type(c, 4, T1, "T1"));
    const sym_shape& b = c.input_shape(1);
    if (b.rank_known && b.rank() != 2) return c.fail("B must be a matrix, got " + b.str());
    const dim n = b.rank_known ? b[1] : dim::unknown();
    ONYX_TRY(detail::require_scalar_or_vector(c, 2, n, "b_scale"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 3, n, "b_zero_point"));
    ONYX_TRY(detail::require_scalar_or_vector(c, 4, n, "bias"));
    detail::retyped_context r(c, {0, 1}, dtype::float32);
    return MatMul::infer({}, r);
  }
};

}  // namespace onyx::ops
