// onyx/ops/nn_ops.hpp: the neural-network op group (convolution, pooling,
// normalization, GEMM/MatMul, softmax family, resize).
#pragma once

#include "onyx/ops/conv.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/registry/registry.hpp"

namespace onyx {

using nn_ops = op_list<ops::Conv, ops::fused::Conv>;

}  // namespace onyx
