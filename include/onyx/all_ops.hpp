// onyx/all_ops.hpp: the full preset, every op onyx implements.
//
// Each op group lists its op structs in include/onyx/ops/<group>_ops.hpp;
// their CPU kernels are gathered in kernels/cpu/all_kernels.hpp.
#pragma once

#include "onyx/ops/control_ops.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "onyx/ops/loss_ops.hpp"
#include "onyx/ops/misc_ops.hpp"
#include "onyx/ops/ml_ops.hpp"
#include "onyx/ops/nn_ops.hpp"
#include "onyx/ops/recurrent_ops.hpp"
#include "onyx/ops/sequence_ops.hpp"
#include "onyx/ops/tensor_ops.hpp"
#include "onyx/ops/text_ops.hpp"
#include "onyx/ops/transformer_ops.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using all_ops = op_list_cat_t<elementwise_ops, tensor_ops, nn_ops, control_ops, sequence_ops, transformer_ops,
                              recurrent_ops, loss_ops, text_ops, misc_ops, ml_ops>;

}  // namespace onyx
