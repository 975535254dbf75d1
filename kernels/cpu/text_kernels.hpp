// kernels/cpu/text_kernels.hpp: the CPU kernels of the text op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/label_encoder.hpp"
#include "kernels/cpu/regex_full_match.hpp"
#include "kernels/cpu/string_ops.hpp"
#include "kernels/cpu/tf_idf_vectorizer.hpp"
