// kernels/cpu/misc_kernels.hpp: the CPU kernels of the misc op group.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "kernels/cpu/affine_grid.hpp"
#include "kernels/cpu/bit_cast.hpp"
#include "kernels/cpu/center_crop_pad.hpp"
#include "kernels/cpu/col2im.hpp"
#include "kernels/cpu/compress.hpp"
#include "kernels/cpu/cumulative.hpp"
#include "kernels/cpu/det.hpp"
#include "kernels/cpu/dft.hpp"
#include "kernels/cpu/dynamic_quantize_gemm.hpp"
#include "kernels/cpu/dynamic_quantize_linear.hpp"
#include "kernels/cpu/einsum.hpp"
#include "kernels/cpu/grid_sample.hpp"
#include "kernels/cpu/integer_conv.hpp"
#include "kernels/cpu/mat_mul_integer.hpp"
#include "kernels/cpu/mel_weight_matrix.hpp"
#include "kernels/cpu/non_max_suppression.hpp"
#include "kernels/cpu/quantize.hpp"
#include "kernels/cpu/reverse_sequence.hpp"
#include "kernels/cpu/roi_align.hpp"
#include "kernels/cpu/shrink.hpp"
#include "kernels/cpu/swi_glu.hpp"
#include "kernels/cpu/swish.hpp"
#include "kernels/cpu/unique.hpp"
#include "kernels/cpu/windows.hpp"
