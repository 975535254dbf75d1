// kernels/cpu/ml_kernels.hpp: the CPU kernels of the ml op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/array_feature_extractor.hpp"
#include "kernels/cpu/binarizer.hpp"
#include "kernels/cpu/cast_map.hpp"
#include "kernels/cpu/category_mapper.hpp"
#include "kernels/cpu/dict_vectorizer.hpp"
#include "kernels/cpu/feature_vectorizer.hpp"
#include "kernels/cpu/imputer.hpp"
#include "kernels/cpu/linear_classifier.hpp"
#include "kernels/cpu/linear_regressor.hpp"
#include "kernels/cpu/normalizer.hpp"
#include "kernels/cpu/one_hot_encoder.hpp"
#include "kernels/cpu/scaler.hpp"
#include "kernels/cpu/svm_classifier.hpp"
#include "kernels/cpu/svm_regressor.hpp"
#include "kernels/cpu/tree_ensemble.hpp"
#include "kernels/cpu/tree_ensemble_classifier.hpp"
#include "kernels/cpu/tree_ensemble_regressor.hpp"
#include "kernels/cpu/zip_map.hpp"
