// onyx/ops/elementwise_ops.hpp: the elementwise op group: broadcasting arithmetic, comparisons,
// logic and bitwise ops, Where, the variadic Sum/Max/Min/Mean, unary math, activations, Clip,
// Identity, Dropout, Cast and CastLike.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/abs.hpp"
#include "onyx/ops/acos.hpp"
#include "onyx/ops/acosh.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/and.hpp"
#include "onyx/ops/asin.hpp"
#include "onyx/ops/asinh.hpp"
#include "onyx/ops/atan.hpp"
#include "onyx/ops/atanh.hpp"
#include "onyx/ops/bit_shift.hpp"
#include "onyx/ops/bitwise_and.hpp"
#include "onyx/ops/bitwise_not.hpp"
#include "onyx/ops/bitwise_or.hpp"
#include "onyx/ops/bitwise_xor.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/cast_like.hpp"
#include "onyx/ops/ceil.hpp"
#include "onyx/ops/celu.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/cos.hpp"
#include "onyx/ops/cosh.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/dropout.hpp"
#include "onyx/ops/elu.hpp"
#include "onyx/ops/equal.hpp"
#include "onyx/ops/erf.hpp"
#include "onyx/ops/exp.hpp"
#include "onyx/ops/floor.hpp"
#include "onyx/ops/fused/elementwise.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/greater.hpp"
#include "onyx/ops/greater_or_equal.hpp"
#include "onyx/ops/hard_sigmoid.hpp"
#include "onyx/ops/hard_swish.hpp"
#include "onyx/ops/identity.hpp"
#include "onyx/ops/is_inf.hpp"
#include "onyx/ops/is_nan.hpp"
#include "onyx/ops/leaky_relu.hpp"
#include "onyx/ops/less.hpp"
#include "onyx/ops/less_or_equal.hpp"
#include "onyx/ops/log.hpp"
#include "onyx/ops/max.hpp"
#include "onyx/ops/mean.hpp"
#include "onyx/ops/min.hpp"
#include "onyx/ops/mish.hpp"
#include "onyx/ops/mod.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/neg.hpp"
#include "onyx/ops/not.hpp"
#include "onyx/ops/or.hpp"
#include "onyx/ops/pow.hpp"
#include "onyx/ops/prelu.hpp"
#include "onyx/ops/reciprocal.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/round.hpp"
#include "onyx/ops/selu.hpp"
#include "onyx/ops/sigmoid.hpp"
#include "onyx/ops/sign.hpp"
#include "onyx/ops/sin.hpp"
#include "onyx/ops/sinh.hpp"
#include "onyx/ops/softplus.hpp"
#include "onyx/ops/softsign.hpp"
#include "onyx/ops/sqrt.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/sum.hpp"
#include "onyx/ops/tan.hpp"
#include "onyx/ops/tanh.hpp"
#include "onyx/ops/thresholded_relu.hpp"
#include "onyx/ops/where.hpp"
#include "onyx/ops/xor.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using elementwise_ops = op_list<
    ops::Add,
    ops::Sub,
    ops::Mul,
    ops::Div,
    ops::Pow,
    ops::Mod,
    ops::Equal,
    ops::Less,
    ops::LessOrEqual,
    ops::Greater,
    ops::GreaterOrEqual,
    ops::And,
    ops::Or,
    ops::Xor,
    ops::Not,
    ops::BitShift,
    ops::BitwiseAnd,
    ops::BitwiseOr,
    ops::BitwiseXor,
    ops::BitwiseNot,
    ops::Where,
    ops::Sum,
    ops::Max,
    ops::Min,
    ops::Mean,
    ops::Abs,
    ops::Neg,
    ops::Reciprocal,
    ops::Sqrt,
    ops::Exp,
    ops::Log,
    ops::Floor,
    ops::Ceil,
    ops::Round,
    ops::Sign,
    ops::Erf,
    ops::Sin,
    ops::Cos,
    ops::Tan,
    ops::Asin,
    ops::Acos,
    ops::Atan,
    ops::Sinh,
    ops::Cosh,
    ops::Asinh,
    ops::Acosh,
    ops::Atanh,
    ops::IsNaN,
    ops::IsInf,
    ops::Relu,
    ops::LeakyRelu,
    ops::PRelu,
    ops::Sigmoid,
    ops::HardSigmoid,
    ops::HardSwish,
    ops::Tanh,
    ops::Elu,
    ops::Selu,
    ops::Celu,
    ops::Softplus,
    ops::Softsign,
    ops::ThresholdedRelu,
    ops::Gelu,
    ops::Mish,
    ops::Clip,
    ops::Clip_v6,
    ops::Identity,
    ops::Dropout,
    ops::Cast,
    ops::CastLike,
    ops::fused::Elementwise,
    ops::Add_v1,
    ops::Sub_v1,
    ops::Mul_v1,
    ops::Div_v1,
    ops::Pow_v1,
    ops::PRelu_v1>;
// clang-format on

}  // namespace onyx
