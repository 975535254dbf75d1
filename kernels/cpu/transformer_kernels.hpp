// kernels/cpu/transformer_kernels.hpp: the CPU kernels of the transformer op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/attention.hpp"
#include "kernels/cpu/flex_attention.hpp"
#include "kernels/cpu/linear_attention.hpp"
#include "kernels/cpu/rms_normalization.hpp"
#include "kernels/cpu/rotary_embedding.hpp"
#include "kernels/cpu/skip_layer_normalization.hpp"
