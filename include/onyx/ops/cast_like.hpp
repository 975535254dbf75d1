// ops::CastLike: output = input converted to the element type of
// `target_type` (whose values are not read). Same conversions and coverage
// as ops::Cast (cast.hpp); `saturate` is accepted and ignored.
// Opsets 15-latest. Kernel (kernels/cpu/cast_like.hpp), keyed by
// (input type, target type). Tested in test/unit/cast_test.cpp.
#pragma once

#include "onyx/ops/cast.hpp"

namespace onyx::ops {

struct CastLike {
  static constexpr std::string_view domain = "", name = "CastLike";
  static constexpr int since = 15, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T1 = castable;
  static constexpr dtype_set T2 = castable;
  static constexpr std::array signature{in(0), in(1)};
  struct attributes {
    std::int64_t saturate = 1;
    std::string round_mode = "up";
    static constexpr auto fields = std::tuple{field{"saturate", &attributes::saturate},
                                              field{"round_mode", &attributes::round_mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 1, castable, "T2"));
    ONYX_TRY(detail::check_round_mode(c, a.round_mode));
    return detail::infer_cast(c, c.input_type(1));
  }
};

}  // namespace onyx::ops
