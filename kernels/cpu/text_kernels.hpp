// kernels/cpu/text_kernels.hpp: CPU kernels of the text group.
#pragma once

#include "kernels/cpu/label_encoder.hpp"
#include "kernels/cpu/regex_full_match.hpp"
#include "kernels/cpu/string_ops.hpp"
#include "kernels/cpu/tf_idf_vectorizer.hpp"
