// onyx/ops/ml_ops.hpp: the ai.onnx.ml op group for classic ML pipelines
// (Binarizer, ArrayFeatureExtractor; LabelEncoder is in the text group).
#pragma once

#include "onyx/ops/array_feature_extractor.hpp"
#include "onyx/ops/binarizer.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using ml_ops = op_list<ops::Binarizer, ops::ArrayFeatureExtractor>;

}  // namespace onyx
