// onyx/ops/text_ops.hpp: the text op group (string ops, TfIdfVectorizer and
// ai.onnx.ml LabelEncoder).
#pragma once

#include "onyx/ops/label_encoder.hpp"
#include "onyx/ops/regex_full_match.hpp"
#include "onyx/ops/string_concat.hpp"
#include "onyx/ops/string_normalizer.hpp"
#include "onyx/ops/string_split.hpp"
#include "onyx/ops/tf_idf_vectorizer.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using text_ops = op_list<ops::StringNormalizer, ops::StringSplit, ops::StringConcat, ops::RegexFullMatch,
                         ops::TfIdfVectorizer, ops::LabelEncoder>;

}  // namespace onyx
