// ops::ScatterElements: a copy of data where, for each position i of
// indices, out[i with `axis` replaced by indices[i]] is set to (reduction
// none) or combined with (add, mul, max, min) updates[i]; positions are
// applied in row-major order. Out-of-range indices fail with
// errc::out_of_range. Opsets 11-latest (16 reduction add/mul, 18 max/min).
// All types for reduction none (by width), numeric types otherwise;
// int32/int64 indices. Tested in test/unit/scatter_elements_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

inline status check_reduction(const std::string& r, const infer_context& c) {
  if (r == "none" || r == "add" || r == "mul" || r == "max" || r == "min") return ok();
  return c.fail("reduction '" + r + "' is not one of none, add, mul, max, min");
}

struct ScatterElements {
  static constexpr std::string_view domain = "", name = "ScatterElements";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all, Tind = dtypes::indices;
  static constexpr std::array signature{in(0), in(1)};
  struct attributes {
    std::int64_t axis = 0;
    std::string reduction = "none";
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"reduction", &attributes::reduction}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, Tind, "Tind"));
    ONYX_TRY(check_reduction(a.reduction, c));
    if (c.input_type(2) != c.input_type(0)) return c.fail("updates and data must have one type");
    const sym_shape &x = c.input_shape(0), &idx = c.input_shape(1), &u = c.input_shape(2);
    if (x.rank_known && idx.rank_known) {
      if (x.rank() != idx.rank()) return c.fail("indices " + idx.str() + " and data " + x.str() + " must have one rank");
      ONYX_TRY(normalize_axis(a.axis, x.rank()).error());
    }
    if (idx.rank_known && u.rank_known) {
      bool same = idx.rank() == u.rank();
      for (std::size_t k = 0; same && k < idx.rank(); ++k)
        same = !(idx.dims[k].known() && u.dims[k].known() && idx.dims[k].value() != u.dims[k].value());
      if (!same) return c.fail("updates " + u.str() + " must have the shape of indices " + idx.str());
    }
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
