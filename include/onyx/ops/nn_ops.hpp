// onyx/ops/nn_ops.hpp: the nn op group: neural networks: convolution, pooling, normalization,
// GEMM/MatMul, the softmax family, resize.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/causal_conv_with_state.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/conv_transpose.hpp"
#include "onyx/ops/deform_conv.hpp"
#include "onyx/ops/fused/batch_normalization.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/global_lp_pool.hpp"
#include "onyx/ops/global_max_pool.hpp"
#include "onyx/ops/group_normalization.hpp"
#include "onyx/ops/hardmax.hpp"
#include "onyx/ops/instance_normalization.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/log_softmax.hpp"
#include "onyx/ops/lp_normalization.hpp"
#include "onyx/ops/lp_pool.hpp"
#include "onyx/ops/lrn.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/ops/max_unpool.hpp"
#include "onyx/ops/mean_variance_normalization.hpp"
#include "onyx/ops/resize.hpp"
#include "onyx/ops/softmax.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using nn_ops = op_list<
    ops::Conv,
    ops::fused::Conv,
    ops::ConvTranspose,
    ops::CausalConvWithState,
    ops::DeformConv,
    ops::MaxPool,
    ops::MaxUnpool,
    ops::AveragePool,
    ops::LpPool,
    ops::GlobalMaxPool,
    ops::GlobalAveragePool,
    ops::GlobalLpPool,
    ops::BatchNormalization,
    ops::fused::BatchNormalization,
    ops::LRN,
    ops::InstanceNormalization,
    ops::LayerNormalization,
    ops::GroupNormalization,
    ops::LpNormalization,
    ops::MeanVarianceNormalization,
    ops::Gemm,
    ops::MatMul,
    ops::fused::MatMul,
    ops::Softmax,
    ops::Softmax_v1,
    ops::LogSoftmax,
    ops::LogSoftmax_v1,
    ops::Hardmax,
    ops::Hardmax_v1,
    ops::Resize,
    ops::Resize_v10,
    ops::Upsample>;
// clang-format on

}  // namespace onyx
