// onyx/ops/tensor_ops.hpp: the tensor op group: data movement, shape and reductions.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/arg_max.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/constant_of_shape.hpp"
#include "onyx/ops/depth_to_space.hpp"
#include "onyx/ops/expand.hpp"
#include "onyx/ops/eye_like.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/gather.hpp"
#include "onyx/ops/gather_elements.hpp"
#include "onyx/ops/gather_nd.hpp"
#include "onyx/ops/non_zero.hpp"
#include "onyx/ops/one_hot.hpp"
#include "onyx/ops/pad.hpp"
#include "onyx/ops/range.hpp"
#include "onyx/ops/reduce.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/scatter.hpp"
#include "onyx/ops/scatter_elements.hpp"
#include "onyx/ops/scatter_nd.hpp"
#include "onyx/ops/shape.hpp"
#include "onyx/ops/size.hpp"
#include "onyx/ops/slice.hpp"
#include "onyx/ops/space_to_depth.hpp"
#include "onyx/ops/split.hpp"
#include "onyx/ops/squeeze.hpp"
#include "onyx/ops/tensor_scatter.hpp"
#include "onyx/ops/tile.hpp"
#include "onyx/ops/top_k.hpp"
#include "onyx/ops/transpose.hpp"
#include "onyx/ops/trilu.hpp"
#include "onyx/ops/unsqueeze.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using tensor_ops = op_list<
    ops::Reshape,
    ops::Reshape_v1,
    ops::Flatten,
    ops::Squeeze,
    ops::Squeeze_v1,
    ops::Unsqueeze,
    ops::Unsqueeze_v1,
    ops::Shape,
    ops::Size,
    ops::ConstantOfShape,
    ops::Range,
    ops::EyeLike,
    ops::Transpose,
    ops::Concat,
    ops::Split,
    ops::Split_v1,
    ops::Slice,
    ops::Slice_v1,
    ops::Expand,
    ops::Tile,
    ops::Pad,
    ops::Pad_v2,
    ops::DepthToSpace,
    ops::SpaceToDepth,
    ops::Trilu,
    ops::Gather,
    ops::GatherElements,
    ops::GatherND,
    ops::ScatterElements,
    ops::Scatter,
    ops::ScatterND,
    ops::TensorScatter,
    ops::OneHot,
    ops::NonZero,
    ops::TopK,
    ops::TopK_v1,
    ops::ArgMax,
    ops::ArgMin,
    ops::ReduceSum,
    ops::ReduceMean,
    ops::ReduceMax,
    ops::ReduceMin,
    ops::ReduceProd,
    ops::ReduceL1,
    ops::ReduceL2,
    ops::ReduceLogSum,
    ops::ReduceLogSumExp,
    ops::ReduceSumSquare,
    ops::ReduceSum_v1,
    ops::ReduceMean_v1,
    ops::ReduceMax_v1,
    ops::ReduceMin_v1,
    ops::ReduceProd_v1,
    ops::ReduceL1_v1,
    ops::ReduceL2_v1,
    ops::ReduceLogSum_v1,
    ops::ReduceLogSumExp_v1,
    ops::ReduceSumSquare_v1>;
// clang-format on

}  // namespace onyx
