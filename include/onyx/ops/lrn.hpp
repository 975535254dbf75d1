// ops::LRN: local response normalization across channels,
// y = x / (bias + alpha / size * sum_{c' in window(c)} x[c']^2)^beta with the
// window [c - floor((size-1)/2), c + ceil((size-1)/2)] clipped to [0, C).
// Opsets 1-latest (13 added bfloat16). Kernel: float16/32/64.
// Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/detail/normalization.hpp"

namespace onyx::ops {

struct LRN {
  static constexpr std::string_view domain = "", name = "LRN";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1e-4f;
    float beta = 0.75f;
    float bias = 1.0f;
    std::int64_t size = 0;
    static constexpr auto fields =
        std::tuple{field{"alpha", &attributes::alpha}, field{"beta", &attributes::beta},
                   field{"bias", &attributes::bias}, field{"size", &attributes::size, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.size < 1) return c.fail("size " + std::to_string(a.size) + " must be positive");
    ONYX_TRY(detail::require_channels(c, 2).error());
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
