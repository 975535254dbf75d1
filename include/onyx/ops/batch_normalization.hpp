// ops::BatchNormalization, inference form: Y = (X - mean) / sqrt(var + epsilon)
// * scale + B per channel (dim 1) of an N x C x D1..Dn input.
// Opsets 1-latest in one struct: the differences (is_test/spatial in 1-8,
// momentum, training_mode and the running-statistics outputs of 14+, split
// parameter types T1/T2 of 15+) only concern training. Deviations: training
// (training_mode 1, is_test 0 with extra outputs, or spatial 0) is refused
// with errc::unsupported. Parameters may have any float type independently of
// X. Kernel: float16/32/64. Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/detail/normalization.hpp"

namespace onyx::ops {

struct BatchNormalization {
  static constexpr std::string_view domain = "", name = "BatchNormalization";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, 5}, outputs{1, 5};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float epsilon = 1e-5f;
    float momentum = 0.9f;
    std::int64_t training_mode = 0;
    std::int64_t spatial = 1;  // opsets 1-8
    std::int64_t is_test = 0;  // opsets 1-6
    static constexpr auto fields =
        std::tuple{field{"epsilon", &attributes::epsilon}, field{"momentum", &attributes::momentum},
                   field{"training_mode", &attributes::training_mode},
                   field{"spatial", &attributes::spatial}, field{"is_test", &attributes::is_test}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.training_mode != 0 || c.output_count() > 1)
      return status(errc::unsupported, "BatchNormalization in training mode (training_mode=1 or more than one "
                                       "output) is not supported; onyx runs inference only");
    if (a.spatial != 1)
      return status(errc::unsupported, "BatchNormalization with spatial=0 (per-activation statistics) is not supported");
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i = 1; i < 5; ++i) ONYX_TRY(require_type(c, i, dtypes::floats, i < 3 ? "T1" : "T2"));
    ONYX_ASSIGN(dim ch, detail::require_channels(c, 2));
    for (int i = 1; i < 5; ++i)
      ONYX_TRY(detail::require_channel_vector(c, i, ch, std::array{"", "scale", "B", "input_mean", "input_var"}[i]));
    return infer_like_input(c);
  }
};

}  // namespace onyx::ops
