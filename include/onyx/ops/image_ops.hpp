// onyx/ops/image_ops.hpp: the image op group: ImageDecoder, over Debian's codec libraries (CMake
// option ONYX_IMAGE_DECODER).
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/image_decoder.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// An optional component: the ops are registered only where ONYX_IMAGE_DECODER is defined
// (the CMake option of that name).
#if defined(ONYX_IMAGE_DECODER)
// clang-format off
using image_ops = op_list<
    ops::ImageDecoder>;
// clang-format on
#else
using image_ops = op_list<>;
#endif

}  // namespace onyx
