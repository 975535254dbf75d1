// onyx/all_ops.hpp: the full preset, every op onyx implements.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/control_ops.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "onyx/ops/image_ops.hpp"
#include "onyx/ops/loss_ops.hpp"
#include "onyx/ops/misc_ops.hpp"
#include "onyx/ops/ml_ops.hpp"
#include "onyx/ops/nn_ops.hpp"
#include "onyx/ops/quant_ops.hpp"
#include "onyx/ops/random_ops.hpp"
#include "onyx/ops/recurrent_ops.hpp"
#include "onyx/ops/sequence_ops.hpp"
#include "onyx/ops/tensor_ops.hpp"
#include "onyx/ops/text_ops.hpp"
#include "onyx/ops/training_ops.hpp"
#include "onyx/ops/transformer_ops.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using all_ops = op_list_cat_t<
    control_ops,
    elementwise_ops,
    loss_ops,
    misc_ops,
    ml_ops,
    nn_ops,
    recurrent_ops,
    sequence_ops,
    tensor_ops,
    text_ops,
    training_ops,
    transformer_ops,
    image_ops,
    random_ops,
    quant_ops>;
// clang-format on

}  // namespace onyx
