// onyx/ops/text_ops.hpp: the text op group: string ops, TfIdfVectorizer and ai.onnx.ml
// LabelEncoder.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/label_encoder.hpp"
#include "onyx/ops/regex_full_match.hpp"
#include "onyx/ops/string_concat.hpp"
#include "onyx/ops/string_normalizer.hpp"
#include "onyx/ops/string_split.hpp"
#include "onyx/ops/tf_idf_vectorizer.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using text_ops = op_list<
    ops::StringNormalizer,
    ops::StringSplit,
    ops::StringConcat,
    ops::RegexFullMatch,
    ops::TfIdfVectorizer,
    ops::LabelEncoder,
    ops::LabelEncoder_v1>;
// clang-format on

}  // namespace onyx
