// ops::Trilu: the upper (upper=1) or lower triangle of the last two dims,
// shifted by diagonal k (input 1, default 0); the rest is zero.
// Opsets 14-latest. All types (strings zero to ""); the kernel works by
// width. Tested in test/unit/trilu_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Trilu {
  static constexpr std::string_view domain = "", name = "Trilu";
  static constexpr int since = 14, until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t upper = 1;
    static constexpr auto fields = std::tuple{field{"upper", &attributes::upper}};
  };
  static status infer(const attributes&, infer_context& c) {
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, dtypes::i64, "k (int64)"));
    if (c.input_shape(0).rank_known && c.input_shape(0).rank() < 2)
      return c.fail("input must have rank >= 2, not " + c.input_shape(0).str());
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
