// ops::QLinearConcat (com.microsoft): inputs Y_scale, Y_zero_point, then one
// (X_i, X_i_scale, X_i_zero_point) triple per tensor; Y is Concat of the X_i
// along `axis` (required), each requantized: y = saturate(round(X_i_scale
// (x - X_i_zp) / Y_scale) + Y_zp), rounding to nearest even (a plain copy
// where X_i's scale and zero point are Y's). Scales are float32 scalars, zero
// points scalars of T. Opset 1 of com.microsoft. Kernel
// (kernels/cpu/qlinear_concat.hpp): uint8, int8, through a 256-entry table per
// input. Tested in test/unit/qlinear_contrib_test.cpp.
#pragma once

#include <limits>

#include "onyx/ops/detail/qlinear.hpp"

namespace onyx::ops {

struct QLinearConcat {
  static constexpr std::string_view domain = "com.microsoft", name = "QLinearConcat";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, variadic, positions(1)}, outputs{1, 1};
  static constexpr dtype_set T = detail::qlinear_8bit;
  static constexpr std::array signature{in(1)};
  static constexpr std::int64_t no_axis = std::numeric_limits<std::int64_t>::min();
  struct attributes {
    std::int64_t axis = no_axis;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.axis == no_axis) return c.fail("the axis attribute is required");
    if ((c.input_count() - 2) % 3 != 0)
      return c.fail("expected Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples, got " +
                    std::to_string(c.input_count()) + " inputs");
    ONYX_TRY(require_type(c, 1, T, "T"));
    ONYX_TRY(detail::require_qlinear_params(c, 1, 0, 1, "Y"));
    const sym_shape* ranked = nullptr;
    for (int i = 2; i < c.input_count(); i += 3) {
      const std::string what = "X" + std::to_string((i - 2) / 3);
      if (c.input_type(i) != c.input_type(1))
        return c.fail(what + " has type " + std::string(onyx::name(c.input_type(i))) + " but Y_zero_point has " +
                      std::string(onyx::name(c.input_type(1))));
      if (!c.has_input(i + 2)) return c.fail(what + "_zero_point is required");
      ONYX_TRY(detail::require_qlinear_params(c, i, i + 1, i + 2, what));
      if (!ranked && c.input_shape(i).rank_known) ranked = &c.input_shape(i);
    }
    if (!ranked) {
      c.set_output(0, c.input_type(1), sym_shape::unknown_rank());
      return ok();
    }
    const std::size_t r = ranked->rank();
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, r));
    std::vector<dim> out = ranked->dims;
    dim total = 0;
    for (int i = 2; i < c.input_count(); i += 3) {
      const sym_shape& s = c.input_shape(i);
      if (!s.rank_known) {
        total = dim::unknown();
        continue;
      }
      if (s.rank() != r)
        return c.fail("X" + std::to_string((i - 2) / 3) + " has rank " + std::to_string(s.rank()) + ", not " +
                      std::to_string(r));
      for (std::size_t d = 0; d < r; ++d)
        if (static_cast<int>(d) != axis && s[d].known() && out[d].known() && s[d].value() != out[d].value())
          return c.fail("X" + std::to_string((i - 2) / 3) + " of shape " + s.str() + " does not match " +
                        ranked->str() + " off the axis");
      total = total + s[axis];
    }
    out[axis] = total;
    c.set_output(0, c.input_type(1), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
