// onyx/ops/transformer_ops.hpp: the transformer op group: Attention, FlexAttention,
// LinearAttention, RMSNormalization, RotaryEmbedding, com.microsoft SkipLayerNormalization
// (LayerNormalization is in nn).
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/attention.hpp"
#include "onyx/ops/flex_attention.hpp"
#include "onyx/ops/linear_attention.hpp"
#include "onyx/ops/rms_normalization.hpp"
#include "onyx/ops/rotary_embedding.hpp"
#include "onyx/ops/skip_layer_normalization.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using transformer_ops = op_list<
    ops::Attention,
    ops::FlexAttention,
    ops::LinearAttention,
    ops::RMSNormalization,
    ops::RotaryEmbedding,
    ops::SkipLayerNormalization>;
// clang-format on

}  // namespace onyx
