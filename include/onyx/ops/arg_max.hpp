// ops::ArgMax and ops::ArgMin: the int64 index of the largest (smallest)
// element along `axis`; ties give the first index, or the last when
// select_last_index=1. keepdims=1 keeps the axis as a 1.
// Opsets 1-latest (11 negative axes, 12 select_last_index). Numeric types.
// Tested in test/unit/arg_max_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct arg_reduce_base {
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {
    std::int64_t axis = 0;
    std::int64_t keepdims = 1;
    std::int64_t select_last_index = 0;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"keepdims", &attributes::keepdims},
                   field{"select_last_index", &attributes::select_last_index}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, dtype::int64, sym_shape::unknown_rank());
      return ok();
    }
    ONYX_ASSIGN(int axis, normalize_axis(a.axis, x.rank()));
    if (x.dims[axis].known() && x.dims[axis].value() == 0) return c.fail("cannot take the arg of an empty axis");
    std::vector<dim> out = x.dims;
    if (a.keepdims) out[axis] = 1;
    else out.erase(out.begin() + axis);
    c.set_output(0, dtype::int64, sym_shape(std::move(out)));
    return ok();
  }
};

struct ArgMax : arg_reduce_base {
  static constexpr std::string_view domain = "", name = "ArgMax";
};
struct ArgMin : arg_reduce_base {
  static constexpr std::string_view domain = "", name = "ArgMin";
};

}  // namespace onyx::ops
