// onyx/ops/loss_ops.hpp: the loss op group: the training losses.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/negative_log_likelihood_loss.hpp"
#include "onyx/ops/softmax_cross_entropy_loss.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using loss_ops = op_list<
    ops::NegativeLogLikelihoodLoss,
    ops::SoftmaxCrossEntropyLoss>;
// clang-format on

}  // namespace onyx
