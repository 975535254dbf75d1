// kernels/cpu/nn_kernels.hpp: the CPU kernels of the nn op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/causal_conv_with_state.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/conv_transpose.hpp"
#include "kernels/cpu/deform_conv.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/max_unpool.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/resize.hpp"
#include "kernels/cpu/softmax.hpp"
