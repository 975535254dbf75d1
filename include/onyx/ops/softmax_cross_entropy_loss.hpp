// ops::SoftmaxCrossEntropyLoss: log_prob = log_softmax(scores, axis 1), then
// NegativeLogLikelihoodLoss(log_prob, labels, weights) with the same
// ignore_index and reduction; output 1 (optional) is log_prob.
// Opsets 12-latest (13 only widened types). Kernel: float16/32/64, bfloat16
// with int32/int64 labels (computed in double). Tested in
// test/unit/loss_test.cpp and node/test_sce_*.
#pragma once

#include "onyx/ops/detail/loss.hpp"

namespace onyx::ops {

struct SoftmaxCrossEntropyLoss {
  static constexpr std::string_view domain = "", name = "SoftmaxCrossEntropyLoss";
  static constexpr int since = 12, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 2};
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
    ONYX_TRY(detail::infer_loss(c, T, Tind, a.reduction));
    if (c.output_count() > 1) c.set_output(1, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
