// ops::BatchNormalization: Y = (X - mean) / sqrt(var + epsilon) * scale + B
// per channel (dim 1) of an N x C x D1..Dn input. At inference mean and var
// are the inputs input_mean and input_var. In training mode (training_mode 1,
// opsets 14+) they are the batch's own per-channel mean and biased variance
// (over N and D1..Dn), and the optional outputs running_mean and running_var
// are input_mean * momentum + batch mean * (1 - momentum) (var likewise), as
// ONNX's reference computes them. Opsets 1-latest in one struct (is_test /
// spatial in 1-8, split parameter types T1/T2 in 15+). Deviations: spatial 0
// and the saved-statistics outputs of opsets 1-8 (more than three outputs, or
// extra outputs without training_mode) are refused with errc::unsupported.
// Parameters may have any float type independently of X. Kernel:
// float16/32/64. Tested in test/unit/normalization_test.cpp and the
// conformance tests test_batchnorm_*_training_mode.
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
    if (c.output_count() > 3 || (a.training_mode == 0 && c.output_count() > 1))
      return status(errc::unsupported, "BatchNormalization with the saved-statistics outputs of opsets 1-8 (" +
                                           std::to_string(c.output_count()) + " outputs, training_mode " +
                                           std::to_string(a.training_mode) + ") is not supported");
    if (a.spatial != 1)
      return status(errc::unsupported, "BatchNormalization with spatial=0 (per-activation statistics) is not supported");
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i = 1; i < 5; ++i) ONYX_TRY(require_type(c, i, dtypes::floats, i < 3 ? "T1" : "T2"));
    ONYX_ASSIGN(dim ch, detail::require_channels(c, 2));
    for (int i = 1; i < 5; ++i)
      ONYX_TRY(detail::require_channel_vector(c, i, ch, std::array{"", "scale", "B", "input_mean", "input_var"}[i]));
    ONYX_TRY(infer_like_input(c));
    // Training mode: running_mean and running_var, typed and shaped as the
    // inputs they update.
    for (int i = 1; i < c.output_count(); ++i) c.set_output(i, c.input(2 + i));
    return ok();
  }
};

}  // namespace onyx::ops
