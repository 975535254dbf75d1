// onyx/ops/elementwise_ops.hpp: the elementwise op group (arithmetic,
// comparisons, logic, unary math, activations, Clip, Identity, Dropout, Cast).
#pragma once

#include "onyx/ops/add.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/clip_v6.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/dropout.hpp"
#include "onyx/ops/max.hpp"
#include "onyx/ops/mean.hpp"
#include "onyx/ops/min.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/sum.hpp"
#include "onyx/registry/registry.hpp"

namespace onyx {

using elementwise_ops = op_list<ops::Add, ops::Sub, ops::Mul, ops::Div, ops::Sum, ops::Mean, ops::Max, ops::Min,
                                ops::Relu, ops::Clip, ops::Clip_v6, ops::Dropout>;

}  // namespace onyx
