// ops::Expand: the input broadcast (numpy rules) against the `shape` input;
// the output has the broadcast of both shapes, so a 1 in `shape` keeps the
// input's dim. Opsets 8-latest. All types; the kernel is a strided copy with
// stride 0 on broadcast dims. Tested in test/unit/expand_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Expand {
  static constexpr std::string_view domain = "", name = "Expand";
  static constexpr int since = 8, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 1, dtypes::i64, "shape (int64)"));
    const sym_shape& x = c.input_shape(0);
    if (auto s = c.input_ints(1)) {
      for (auto v : *s)
        if (v < 0) return c.fail("shape holds a negative dim " + std::to_string(v));
      ONYX_ASSIGN(auto out, broadcast(x, sym_shape(*s)));
      c.set_output(0, c.input_type(0), std::move(out));
    } else if (auto n = known_length(c, 1); n && x.rank_known) {
      c.set_output(0, c.input_type(0), unknown_dims(std::max<std::size_t>(x.rank(), static_cast<std::size_t>(*n))));
    } else {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    }
    return ok();
  }
};

}  // namespace onyx::ops
