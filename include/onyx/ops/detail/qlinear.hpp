// onyx/ops/detail/qlinear.hpp: inference shared by the com.microsoft QLinear*
// ops (QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu,
// QLinearGlobalAveragePool, QLinearConcat): 8-bit tensors with per-tensor
// float32 scales and optional zero points of the tensor's type.
#pragma once

#include <string>

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// The 8-bit types of the QLinear* contrib ops.
inline constexpr dtype_set qlinear_8bit = dtypes::u8 | dtypes::i8;

/// Input `scale` is a float32 scalar (or [1]); input `zero_point`, when
/// present, a scalar (or [1]) of input `data`'s type.
inline status require_qlinear_params(const infer_context& c, int data, int scale, int zero_point,
                                     std::string_view what) {
  auto scalar = [&](int i) {
    const sym_shape& s = c.input_shape(i);
    return !s.rank_known || s.rank() == 0 || (s.rank() == 1 && (!s[0].known() || s[0].value() == 1));
  };
  if (!c.has_input(scale)) return c.fail(std::string(what) + "_scale is required");
  if (c.input_type(scale) != dtype::float32)
    return c.fail(std::string(what) + "_scale must be float32, not " + std::string(onyx::name(c.input_type(scale))));
  if (!scalar(scale))
    return c.fail(std::string(what) + "_scale must be a scalar (per-tensor), not of shape " + c.input_shape(scale).str());
  if (zero_point < 0 || zero_point >= c.input_count() || !c.has_input(zero_point)) return ok();
  if (data >= 0 && c.input_type(zero_point) != c.input_type(data))
    return c.fail(std::string(what) + "_zero_point has type " + std::string(onyx::name(c.input_type(zero_point))) +
                  " but " + std::string(what) + " has " + std::string(onyx::name(c.input_type(data))));
  if (!scalar(zero_point))
    return c.fail(std::string(what) + "_zero_point must be a scalar (per-tensor), not of shape " +
                  c.input_shape(zero_point).str());
  return ok();
}

/// X (0), X_scale (1), X_zero_point (2), Y_scale (3), Y_zero_point (4):
/// Y has X's type and shape (QLinearSigmoid, QLinearLeakyRelu).
inline status infer_qlinear_unary(infer_context& c) {
  ONYX_TRY(require_type(c, 0, qlinear_8bit, "T"));
  ONYX_TRY(require_qlinear_params(c, 0, 1, 2, "X"));
  ONYX_TRY(require_qlinear_params(c, 0, 3, 4, "Y"));
  return infer_like_input(c);
}

/// A (0), A_scale, A_zero_point, B (3), B_scale, B_zero_point, C_scale (6),
/// C_zero_point (7): C is the broadcast of A and B, of their type
/// (QLinearAdd, QLinearMul).
inline status infer_qlinear_binary(infer_context& c) {
  ONYX_TRY(require_type(c, 0, qlinear_8bit, "T"));
  if (c.input_type(3) != c.input_type(0))
    return c.fail("B has type " + std::string(onyx::name(c.input_type(3))) + " but A has " +
                  std::string(onyx::name(c.input_type(0))));
  ONYX_TRY(require_qlinear_params(c, 0, 1, 2, "A"));
  ONYX_TRY(require_qlinear_params(c, 3, 4, 5, "B"));
  ONYX_TRY(require_qlinear_params(c, 0, 6, 7, "C"));
  ONYX_ASSIGN(sym_shape s, broadcast(c.input_shape(0), c.input_shape(3)));
  c.set_output(0, c.input_type(0), std::move(s));
  return ok();
}

}  // namespace onyx::ops::detail
