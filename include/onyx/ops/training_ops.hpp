// onyx/ops/training_ops.hpp: the training op group: the optimizers of ai.onnx.preview.training.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/adagrad.hpp"
#include "onyx/ops/adam.hpp"
#include "onyx/ops/momentum.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using training_ops = op_list<
    ops::Adagrad,
    ops::Momentum,
    ops::Adam>;
// clang-format on

}  // namespace onyx
