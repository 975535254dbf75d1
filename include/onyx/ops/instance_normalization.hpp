// ops::InstanceNormalization: y = scale[c] * (x - mean) / sqrt(var + epsilon)
// + B[c], with mean and (biased) variance over the spatial positions of each
// (n, c) plane. Opsets 1-latest (6 dropped consumed_inputs).
// Kernel: float16/32/64. Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/detail/normalization.hpp"

namespace onyx::ops {

struct InstanceNormalization {
  static constexpr std::string_view domain = "", name = "InstanceNormalization";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float epsilon = 1e-5f;
    static constexpr auto fields = std::tuple{field{"epsilon", &attributes::epsilon}};
  };
  static status infer(const attributes&, infer_context& c) {
    for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T, "T"));
    ONYX_ASSIGN(dim ch, detail::require_channels(c, 3));
    ONYX_TRY(detail::require_channel_vector(c, 1, ch, "scale"));
    ONYX_TRY(detail::require_channel_vector(c, 2, ch, "B"));
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
