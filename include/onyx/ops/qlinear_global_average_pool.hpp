// ops::QLinearGlobalAveragePool (com.microsoft): the mean over the spatial
// dims of X_scale (X - X_zp), requantized: Y = saturate(round(mean / Y_scale) +
// Y_zp), rounding to nearest even. X is N x C x D1..Dn (channels_last = 0)
// or N x D1..Dn x C (channels_last = 1); Y keeps the layout with every
// spatial dim 1. Scales are float32 scalars, zero points scalars of T. Opset 1
// of com.microsoft. Kernel (kernels/cpu/qlinear_global_average_pool.hpp):
// uint8, int8; exact int32 sums per channel, scaled once by X_scale / (Y_scale
// * size) as ONNX Runtime does. Tested in test/unit/qlinear_contrib_test.cpp.
#pragma once

#include "onyx/ops/detail/qlinear.hpp"

namespace onyx::ops {

struct QLinearGlobalAveragePool {
  static constexpr std::string_view domain = "com.microsoft", name = "QLinearGlobalAveragePool";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{5, 5, positions(2, 4)}, outputs{1, 1};
  static constexpr dtype_set T = detail::qlinear_8bit;
  struct attributes {
    std::int64_t channels_last = 0;
    static constexpr auto fields = std::tuple{field{"channels_last", &attributes::channels_last}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(detail::require_qlinear_params(c, 0, 1, 2, "x"));
    ONYX_TRY(detail::require_qlinear_params(c, 0, 3, 4, "y"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    if (x.rank() < 3) return c.fail("X must have rank 3 or more (N, C and spatial dims), not " + x.str());
    std::vector<dim> y(x.rank(), dim(1));
    y[0] = x[0];
    const std::size_t channel = a.channels_last ? x.rank() - 1 : 1;
    y[channel] = x[channel];
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
