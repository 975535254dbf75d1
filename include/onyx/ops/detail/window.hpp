// onyx/ops/detail/window.hpp: what HannWindow, HammingWindow and
// BlackmanWindow share: a scalar int32/int64 `size` input, `output_datatype`
// and `periodic` attributes, output [size] (known when size is constant).
// With N = size (periodic) or size - 1 (symmetric), element n is
// a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), computed in double.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

inline constexpr dtype_set window_output_types = dtypes::numeric;

struct window_attributes {
  std::int64_t output_datatype = 1;
  std::int64_t periodic = 1;
  static constexpr auto fields = std::tuple{field{"output_datatype", &window_attributes::output_datatype},
                                            field{"periodic", &window_attributes::periodic}};
};

/// Cosine-sum coefficients a0, a1, a2 of one window.
struct cosine_window {
  double a0, a1, a2;
};

inline status window_infer(const window_attributes& a, infer_context& c) {
  ONYX_TRY(require_type(c, 0, dtypes::indices, "T1"));
  const sym_shape& s = c.input_shape(0);
  if (s.rank_known && !(s.rank() == 0 || (s.rank() == 1 && (!s[0].known() || s[0].value() == 1))))
    return c.fail("size must be a scalar, got shape " + s.str());
  auto t = static_cast<dtype>(a.output_datatype);
  if (!is_valid(static_cast<int>(a.output_datatype)) || !window_output_types.contains(t))
    return c.fail("output_datatype " + std::to_string(a.output_datatype) + " is not a numeric type");
  dim n = dim::unknown();
  if (auto v = c.input_ints(0); v && v->size() == 1) {
    if ((*v)[0] < 0) return c.fail("size " + std::to_string((*v)[0]) + " is negative");
    n = dim((*v)[0]);
  }
  c.set_output(0, t, sym_shape({n}));
  return ok();
}

}  // namespace onyx::ops::detail
