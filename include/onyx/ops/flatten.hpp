// ops::Flatten: the input as a 2-D matrix [prod(dims[:axis]), prod(dims[axis:])].
// Opsets 1-latest (11 allowed negative axes; types widened over time). All
// types; the kernel copies bytes. Tested in test/unit/reshape_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Flatten {
  static constexpr std::string_view domain = "", name = "Flatten";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t axis = 1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), unknown_dims(2));
      return ok();
    }
    auto r = static_cast<std::int64_t>(x.rank());
    if (a.axis < -r || a.axis > r)
      return c.fail("axis " + std::to_string(a.axis) + " is out of range [" + std::to_string(-r) + ", " +
                    std::to_string(r) + "] for rank " + std::to_string(r));
    auto axis = static_cast<std::size_t>(a.axis < 0 ? a.axis + r : a.axis);
    c.set_output(0, c.input_type(0), sym_shape({dim_product(x, 0, axis), dim_product(x, axis, x.rank())}));
    return ok();
  }
};

}  // namespace onyx::ops
