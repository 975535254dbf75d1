// kernels/cpu/all_kernels.hpp: every CPU kernel, for the full preset.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/control_kernels.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "kernels/cpu/image_kernels.hpp"
#include "kernels/cpu/loss_kernels.hpp"
#include "kernels/cpu/misc_kernels.hpp"
#include "kernels/cpu/ml_kernels.hpp"
#include "kernels/cpu/nn_kernels.hpp"
#include "kernels/cpu/quant_kernels.hpp"
#include "kernels/cpu/random_kernels.hpp"
#include "kernels/cpu/recurrent_kernels.hpp"
#include "kernels/cpu/sequence_kernels.hpp"
#include "kernels/cpu/tensor_kernels.hpp"
#include "kernels/cpu/text_kernels.hpp"
#include "kernels/cpu/training_kernels.hpp"
#include "kernels/cpu/transformer_kernels.hpp"
