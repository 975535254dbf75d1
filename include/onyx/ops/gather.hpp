// ops::Gather: entries of `data` along `axis` picked by `indices`; the output
// shape is data[:axis] + indices + data[axis+1:]. Negative indices count from
// the end; indices outside [-n, n-1] fail with errc::out_of_range.
// Opsets 1-latest (11 allowed negative indices). All types; int32/int64
// indices. The kernel moves elements by width. Tested in test/unit/gather_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Gather {
  static constexpr std::string_view domain = "", name = "Gather";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, Tind = dtypes::indices;
  static constexpr std::array signature{in(0), in(1)};
  struct attributes {
    std::int64_t axis = 0;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, Tind, "Tind"));
    const sym_shape &x = c.input_shape(0), &idx = c.input_shape(1);
    if (!x.rank_known || !idx.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    if (x.rank() == 0) return c.fail("data must have rank >= 1, not a scalar");
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    std::vector<dim> out(x.dims.begin(), x.dims.begin() + axis);
    out.insert(out.end(), idx.dims.begin(), idx.dims.end());
    out.insert(out.end(), x.dims.begin() + axis + 1, x.dims.end());
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
