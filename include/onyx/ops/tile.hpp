// ops::Tile: the input repeated repeats[k] times along each dim k.
// Opsets 6-latest. All types; the kernel is a strided copy over the output
// viewed as [r0, d0, r1, d1, ...] with stride 0 on the repeat dims.
// Tested in test/unit/expand_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Tile {
  static constexpr std::string_view domain = "", name = "Tile";
  static constexpr int since = 6, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "repeats (int64)"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    auto r = c.input_ints(1);
    if (!r) {
      c.set_output(0, c.input_type(0), unknown_dims(x.rank()));
      return ok();
    }
    if (r->size() != x.rank())
      return c.fail("repeats has " + std::to_string(r->size()) + " entries for an input of rank " +
                    std::to_string(x.rank()));
    std::vector<dim> out;
    for (std::size_t k = 0; k < x.rank(); ++k) {
      if ((*r)[k] < 0) return c.fail("repeats holds a negative count " + std::to_string((*r)[k]));
      out.push_back(x.dims[k] * (*r)[k]);
    }
    c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
    return ok();
  }
};

}  // namespace onyx::ops
