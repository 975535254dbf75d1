// kernels/cpu/image_kernels.hpp: the CPU kernels of the image op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#if defined(ONYX_IMAGE_DECODER)  // an optional component
#include "kernels/cpu/image_decoder.hpp"
#endif
