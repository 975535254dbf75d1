// onyx/ops/detail/softmax.hpp: what Softmax, LogSoftmax and Hardmax share:
// the shape rule of the latest forms and the expansion of the opset 1-12 forms,
// and the two bases that declare each of them in one line.
#pragma once

#include "onyx/ops/op.hpp"
#include "onyx/ops/op_name.hpp"

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

/// Softmax, LogSoftmax, Hardmax of opsets 13-latest: one axis (default -1), float types.
template <op_name Name>
struct softmax_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 13, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::int64_t axis = -1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) { return softmax_infer(a.axis, c, T); }
};

/// Their opsets 1-12 forms (axis default 1, input coerced to 2-D), expanded
/// into the latest op by softmax_v1_expand.
template <op_name Name>
struct softmax_v1_op {
  static constexpr std::string_view domain = "", name = Name.view();
  static constexpr int since = 1, until = 12;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::int64_t axis = 1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) { return softmax_v1_infer(a.axis, c, T); }
  static status expand(const attributes& a, expand_context& c) { return softmax_v1_expand(name, a.axis, c); }
};

}  // namespace onyx::ops::detail
