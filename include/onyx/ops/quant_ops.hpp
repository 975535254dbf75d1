// onyx/ops/quant_ops.hpp: the quant op group: quantized ops of the com.microsoft domain.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/fused/qlinear_lookup.hpp"
#include "onyx/ops/q_gemm.hpp"
#include "onyx/ops/qlinear_add.hpp"
#include "onyx/ops/qlinear_concat.hpp"
#include "onyx/ops/qlinear_global_average_pool.hpp"
#include "onyx/ops/qlinear_leaky_relu.hpp"
#include "onyx/ops/qlinear_mul.hpp"
#include "onyx/ops/qlinear_sigmoid.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using quant_ops = op_list<
    ops::QLinearAdd,
    ops::QLinearMul,
    ops::QLinearSigmoid,
    ops::QLinearLeakyRelu,
    ops::QLinearGlobalAveragePool,
    ops::QLinearConcat,
    ops::QGemm,
    ops::fused::QLinearLookup>;
// clang-format on

}  // namespace onyx
