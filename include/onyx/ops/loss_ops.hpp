// onyx/ops/loss_ops.hpp: the loss op group.
#pragma once

#include "onyx/ops/negative_log_likelihood_loss.hpp"
#include "onyx/ops/softmax_cross_entropy_loss.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using loss_ops = op_list<ops::NegativeLogLikelihoodLoss, ops::SoftmaxCrossEntropyLoss>;

}  // namespace onyx
