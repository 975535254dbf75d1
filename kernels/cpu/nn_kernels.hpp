// kernels/cpu/nn_kernels.hpp: CPU kernels of the nn op group.
#pragma once

#include "kernels/cpu/causal_conv_with_state.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/deform_conv.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/max_unpool.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "kernels/cpu/softmax.hpp"
#include "kernels/cpu/conv_transpose.hpp"
#include "kernels/cpu/resize.hpp"
