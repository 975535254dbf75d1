// onyx/ops/transformer_ops.hpp: the transformer op group (Attention, LinearAttention,
// RMSNormalization, RotaryEmbedding; LayerNormalization is in nn).
#pragma once

#include "onyx/ops/attention.hpp"
#include "onyx/ops/linear_attention.hpp"
#include "onyx/ops/rms_normalization.hpp"
#include "onyx/ops/rotary_embedding.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using transformer_ops = op_list<ops::Attention, ops::LinearAttention, ops::RMSNormalization, ops::RotaryEmbedding>;

}  // namespace onyx
