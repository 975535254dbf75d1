// ops::NegativeLogLikelihoodLoss: loss[n, d] = -input[n, target[n, d], d] *
// weight[target[n, d]] (weight 1 when absent; 0 where target == ignore_index),
// then reduction none (target-shaped), sum, or mean (sum divided by the sum of
// the applied weights). Opsets 12-latest (13 and 22 only widened types).
// Kernel: float16/32/64, bfloat16 with int32/int64 targets (sums in double);
// a target outside [0, C) that is not ignore_index is an out_of_range error.
// Tested in test/unit/loss_test.cpp and node/test_nllloss_*.
#pragma once

#include "onyx/ops/detail/loss.hpp"

namespace onyx::ops {

struct NegativeLogLikelihoodLoss {
  static constexpr std::string_view domain = "", name = "NegativeLogLikelihoodLoss";
  static constexpr int since = 12, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set Tind = dtypes::indices;
  static constexpr std::array signature{in(0), in(1)};
  struct attributes {
    std::optional<std::int64_t> ignore_index;
    std::string reduction = "mean";
    static constexpr auto fields = std::tuple{field{"ignore_index", &attributes::ignore_index},
                                              field{"reduction", &attributes::reduction}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return detail::infer_loss(c, T, Tind, a.reduction);
  }
};

}  // namespace onyx::ops
