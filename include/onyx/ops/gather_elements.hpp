// ops::GatherElements: out[i] = data[i with coordinate `axis` replaced by
// indices[i]]; indices has data's rank and the output has indices' shape.
// Negative indices count from the end; indices outside [-n, n-1] fail with
// errc::out_of_range. Opsets 11-latest. All types; int32/int64 indices; the
// kernel moves elements by width. Tested in test/unit/gather_elements_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct GatherElements {
  static constexpr std::string_view domain = "", name = "GatherElements";
  static constexpr int since = 11, until = latest;
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
    if (x.rank_known && idx.rank_known) {
      if (x.rank() != idx.rank())
        return c.fail("indices " + idx.str() + " and data " + x.str() + " must have one rank");
      ONYX_TRY(normalize_axis(a.axis, x.rank()).error());
    }
    c.set_output(0, c.input_type(0), idx);
    return ok();
  }
};

}  // namespace onyx::ops
