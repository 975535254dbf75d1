// onyx/ops/detail/cumulative.hpp: what CumSum and CumProd share: the type
// constraints, attributes and inference (y has x's type and shape; axis is
// a one-element int32/int64 tensor, checked against x's rank when known).
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops::detail {

inline constexpr dtype_set cumulative_types =
    dtypes::u32 | dtypes::u64 | dtypes::i32 | dtypes::i64 | dtypes::floats;

struct cumulative_attributes {
  std::int64_t exclusive = 0;
  std::int64_t reverse = 0;
  static constexpr auto fields = std::tuple{field{"exclusive", &cumulative_attributes::exclusive},
                                            field{"reverse", &cumulative_attributes::reverse}};
};

inline status cumulative_infer(infer_context& c) {
  ONYX_TRY(require_type(c, 0, cumulative_types, "T"));
  ONYX_TRY(require_type(c, 1, dtypes::indices, "T2"));
  const sym_shape& axis = c.input_shape(1);
  if (axis.rank_known && axis.rank() > 1) return c.fail("axis must be a scalar, got shape " + axis.str());
  if (auto v = c.input_ints(1); v && c.input_shape(0).rank_known) {
    if (v->size() != 1) return c.fail("axis must hold one value");
    ONYX_ASSIGN([[maybe_unused]] int axis, normalize_axis((*v)[0], c.input_shape(0).rank()));
  }
  c.set_output(0, c.input(0));
  return ok();
}

}  // namespace onyx::ops::detail
