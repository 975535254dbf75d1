// ops::LpNormalization: y = x / ||x||_p along `axis` (p 1 or 2); a zero norm
// gives 0, as the reference does. Opsets 1-latest (22 added bfloat16).
// Kernel: float16/32/64. Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LpNormalization {
  static constexpr std::string_view domain = "", name = "LpNormalization";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::int64_t axis = -1;
    std::int64_t p = 2;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}, field{"p", &attributes::p}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.p != 1 && a.p != 2) return c.fail("p must be 1 or 2, got " + std::to_string(a.p));
    if (c.input_shape(0).rank_known) ONYX_TRY(normalize_axis(a.axis, c.input_shape(0).rank()).error());
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
