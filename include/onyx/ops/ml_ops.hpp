// onyx/ops/ml_ops.hpp: the ml op group: ai.onnx.ml for classic ML pipelines (LabelEncoder is in
// text).
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/array_feature_extractor.hpp"
#include "onyx/ops/binarizer.hpp"
#include "onyx/ops/cast_map.hpp"
#include "onyx/ops/category_mapper.hpp"
#include "onyx/ops/dict_vectorizer.hpp"
#include "onyx/ops/feature_vectorizer.hpp"
#include "onyx/ops/imputer.hpp"
#include "onyx/ops/linear_classifier.hpp"
#include "onyx/ops/linear_regressor.hpp"
#include "onyx/ops/normalizer.hpp"
#include "onyx/ops/one_hot_encoder.hpp"
#include "onyx/ops/scaler.hpp"
#include "onyx/ops/svm_classifier.hpp"
#include "onyx/ops/svm_regressor.hpp"
#include "onyx/ops/tree_ensemble.hpp"
#include "onyx/ops/tree_ensemble_classifier.hpp"
#include "onyx/ops/tree_ensemble_regressor.hpp"
#include "onyx/ops/zip_map.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using ml_ops = op_list<
    ops::Binarizer,
    ops::ArrayFeatureExtractor,
    ops::TreeEnsemble,
    ops::TreeEnsembleRegressor,
    ops::TreeEnsembleClassifier,
    ops::Scaler,
    ops::Normalizer,
    ops::LinearRegressor,
    ops::LinearClassifier,
    ops::SVMRegressor,
    ops::SVMClassifier,
    ops::Imputer,
    ops::OneHotEncoder,
    ops::FeatureVectorizer,
    ops::CategoryMapper,
    ops::ZipMap,
    ops::DictVectorizer,
    ops::CastMap>;
// clang-format on

}  // namespace onyx
