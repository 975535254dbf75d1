// ops::GroupNormalization: splits the C channels of an N x C x D1..Dn input
// into num_groups groups, normalizes each (n, group) by its mean and biased
// variance, then applies scale[c] and bias[c] per channel. Opset 21-latest
// (scale and bias per channel). Opsets 18-20 (scale/bias per group) are not
// covered. Statistics in double. Kernel: float16/32/64, bfloat16.
// Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/detail/normalization.hpp"

namespace onyx::ops {

struct GroupNormalization {
  static constexpr std::string_view domain = "", name = "GroupNormalization";
  static constexpr int since = 21, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float epsilon = 1e-5f;
    std::int64_t num_groups = 0;
    std::int64_t stash_type = 1;
    static constexpr auto fields = std::tuple{field{"epsilon", &attributes::epsilon},
                                              field{"num_groups", &attributes::num_groups, true},
                                              field{"stash_type", &attributes::stash_type}};
  };
  static status infer(const attributes& a, infer_context& c) {
    for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T, "T"));
    ONYX_ASSIGN(dim ch, detail::require_channels(c, 2));
    if (a.num_groups < 1) return c.fail("num_groups must be positive");
    if (ch.known() && ch.value() % a.num_groups != 0)
      return c.fail("channels " + ch.str() + " are not divisible by num_groups " + std::to_string(a.num_groups));
    ONYX_TRY(detail::require_channel_vector(c, 1, ch, "scale"));
    ONYX_TRY(detail::require_channel_vector(c, 2, ch, "bias"));
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
