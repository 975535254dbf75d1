// onyx/ops/detail/softmax.hpp: what Softmax, LogSoftmax and Hardmax share:
// the shape rule of the latest forms and the expansion of the opset 1-12 forms.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

inline status softmax_infer(std::int64_t axis, infer_context& c, dtype_set T) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  const sym_shape& x = c.input_shape(0);
  if (x.rank_known) {
    if (x.rank() == 0) return c.fail("input must have rank >= 1");
    ONYX_TRY(normalize_axis(axis, x.rank()).error());
  }
  return infer_like_input(c);
}

/// Opsets 1-12 coerce the input to 2-D at `axis` ([prod dims < axis, prod dims
/// >= axis]) and normalize each row: Flatten(axis) -> op(axis=-1) -> Reshape
/// back to the input's shape.
inline status softmax_v1_expand(std::string_view op, std::int64_t axis, expand_context& c) {
  ONYX_ASSIGN(auto flat, c.add("Flatten", {c.input(0)}, {attribute{"axis", axis}}));
  ONYX_ASSIGN(auto rows, c.add(op, {flat[0]}, {attribute{"axis", std::int64_t{-1}}}));
  ONYX_ASSIGN(auto shape, c.add("Shape", {c.input(0)}));
  ONYX_ASSIGN(auto out, c.add("Reshape", {rows[0], shape[0]}));
  c.set_output(0, out[0]);
  return ok();
}

inline status softmax_v1_infer(std::int64_t axis, infer_context& c, dtype_set T) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  const sym_shape& x = c.input_shape(0);
  const auto r = static_cast<std::int64_t>(x.rank());
  if (x.rank_known && (axis < -r || axis > r))
    return c.fail("axis " + std::to_string(axis) + " is out of range [" + std::to_string(-r) + ", " +
                  std::to_string(r) + "]");
  return infer_like_input(c);
}

}  // namespace onyx::ops::detail
