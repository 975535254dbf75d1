// ops::Concat: inputs joined along `axis`; all other dims must agree.
// Opsets 1-latest (4 made axis required, 11 allowed negative axes; opset 1's
// default axis of 1 is kept when the attribute is absent). All types; the
// kernel copies contiguous blocks by width. Tested in test/unit/concat_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Concat {
  static constexpr std::string_view domain = "", name = "Concat";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, variadic}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t axis = 1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    const sym_shape* ranked = nullptr;
    for (int i = 0; i < c.input_count(); ++i) {
      if (c.input_type(i) != c.input_type(0))
        return c.fail("input " + std::to_string(i) + " has type " + std::string(onyx::name(c.input_type(i))) +
                      " but input 0 has " + std::string(onyx::name(c.input_type(0))));
      if (!ranked && c.input_shape(i).rank_known) ranked = &c.input_shape(i);
    }
    if (!ranked) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    const std::size_t r = ranked->rank();
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, r));
    std::vector<dim> out = ranked->dims;
    dim total = 0;
    for (int i = 0; i < c.input_count(); ++i) {
      const sym_shape& s = c.input_shape(i);
      if (!s.rank_known) {
        total = dim::unknown();
        continue;
      }
      if (s.rank() != r)
        return c.fail("input " + std::to_string(i) + " has shape " + s.str() + " but input 0 has rank " +
                      std::to_string(r) + "; all inputs need one rank");
      for (std::size_t k = 0; k < r; ++k) {
        if (static_cast<int>(k) == axis) continue;
        if (s.dims[k].known() && out[k].known() && s.dims[k].value() != out[k].value())
          return c.fail("input " + std::to_string(i) + " has shape " + s.str() + ", which differs from " +
                        ranked->str() + " in dim " + std::to_string(k) + " (not the concat axis " +
                        std::to_string(axis) + ")");
        if (!out[k].known() && s.dims[k].known()) out[k] = s.dims[k];
      }
      total = total + s.dims[axis];
    }
    out[axis] = total;
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
