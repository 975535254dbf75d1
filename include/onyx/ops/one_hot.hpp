// ops::OneHot: a tensor with a new dim of size `depth` at `axis`, holding
// values[1] (on) where the coordinate equals the index and values[0] (off)
// elsewhere. Negative indices count from the end; indices outside
// [-depth, depth-1] give an all-off row, as the spec says (not an error).
// Opsets 9-latest (11 negative axes and indices). Indices and depth of any
// numeric type (non-integers truncate), values of any type; the kernel works
// by the values' width. Tested in test/unit/one_hot_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct OneHot {
  static constexpr std::string_view domain = "", name = "OneHot";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::numeric, T2 = dtypes::numeric, T3 = dtypes::all;
  static constexpr std::array signature{in(2)};
  struct attributes {
    std::int64_t axis = -1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    const sym_shape& idx = c.input_shape(0);
    if (c.input_shape(2).rank_known && c.input_shape(2) .rank() == 1 && c.input_shape(2).dims[0].known() &&
        c.input_shape(2).dims[0].value() != 2)
      return c.fail("values must hold [off, on], not " + c.input_shape(2).str());
    if (!idx.rank_known) {
      c.set_output(0, c.input_type(2), sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, idx.rank() + 1));
    dim depth = dim::unknown();
    if (const tensor* d = c.input_value(1); d && d->size() == 1) {
      double v = 0;
      switch (d->type()) {
        case dtype::float32: v = d->data<float>()[0]; break;
        case dtype::float64: v = d->data<double>()[0]; break;
        case dtype::int32: v = d->data<std::int32_t>()[0]; break;
        case dtype::int64: v = static_cast<double>(d->data<std::int64_t>()[0]); break;
        default: v = -1; break;
      }
      if (v >= 0) depth = static_cast<std::int64_t>(v);
    }
    std::vector<dim> out = idx.dims;
    out.insert(out.begin() + axis, depth);
    c.set_output(0, c.input_type(2), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
