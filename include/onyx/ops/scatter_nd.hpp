// ops::ScatterND: a copy of data where each innermost row of indices
// (length k) addresses a slice data[i1, ..., ik, :] that is set to (reduction
// none) or combined with (add, mul, max, min) the matching slice of updates;
// updates has shape indices.shape[:-1] + data.shape[k:]. Rows are applied in
// order. Out-of-range indices fail with errc::out_of_range.
// Opsets 11-latest (16 reduction add/mul, 18 max/min). All types for
// reduction none (by width), numeric types otherwise. Tested in
// test/unit/scatter_elements_test.cpp.
#pragma once

#include "onyx/ops/scatter_elements.hpp"

namespace onyx::ops {

struct ScatterND {
  static constexpr std::string_view domain = "", name = "ScatterND";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::string reduction = "none";
    static constexpr auto fields = std::tuple{field{"reduction", &attributes::reduction}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "indices (int64)"));
    ONYX_TRY(check_reduction(a.reduction, c));
    if (c.input_type(2) != c.input_type(0)) return c.fail("updates and data must have one type");
    const sym_shape &x = c.input_shape(0), &idx = c.input_shape(1), &u = c.input_shape(2);
    if (x.rank_known && idx.rank_known && u.rank_known && idx.rank() > 0 && idx.dims.back().known()) {
      const auto k = static_cast<std::size_t>(idx.dims.back().value());
      if (k > x.rank()) return c.fail("index rows of length " + std::to_string(k) + " exceed data rank " + x.str());
      if (u.rank() != idx.rank() - 1 + x.rank() - k)
        return c.fail("updates " + u.str() + " must have shape indices[:-1] + data[k:] (indices " + idx.str() +
                      ", data " + x.str() + ")");
    }
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
