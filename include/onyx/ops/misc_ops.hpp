// onyx/ops/misc_ops.hpp: the misc op group: Shrink, Swish, SwiGLU, CumSum, CumProd, Det, Einsum,
// Unique, Compress, NonMaxSuppression, RoiAlign, the quantization ops and the signal ops.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/affine_grid.hpp"
#include "onyx/ops/bit_cast.hpp"
#include "onyx/ops/blackman_window.hpp"
#include "onyx/ops/center_crop_pad.hpp"
#include "onyx/ops/col2im.hpp"
#include "onyx/ops/compress.hpp"
#include "onyx/ops/conv_integer.hpp"
#include "onyx/ops/cum_prod.hpp"
#include "onyx/ops/cum_sum.hpp"
#include "onyx/ops/dequantize_linear.hpp"
#include "onyx/ops/det.hpp"
#include "onyx/ops/dft.hpp"
#include "onyx/ops/dynamic_quantize_linear.hpp"
#include "onyx/ops/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/einsum.hpp"
#include "onyx/ops/fused/conv_integer_to_float.hpp"
#include "onyx/ops/fused/dynamic_quantize_conv.hpp"
#include "onyx/ops/fused/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/mat_mul_integer_to_float.hpp"
#include "onyx/ops/grid_sample.hpp"
#include "onyx/ops/hamming_window.hpp"
#include "onyx/ops/hann_window.hpp"
#include "onyx/ops/mat_mul_integer.hpp"
#include "onyx/ops/mat_mul_integer_to_float.hpp"
#include "onyx/ops/mel_weight_matrix.hpp"
#include "onyx/ops/non_max_suppression.hpp"
#include "onyx/ops/qlinear_conv.hpp"
#include "onyx/ops/qlinear_mat_mul.hpp"
#include "onyx/ops/quantize_linear.hpp"
#include "onyx/ops/reverse_sequence.hpp"
#include "onyx/ops/roi_align.hpp"
#include "onyx/ops/shrink.hpp"
#include "onyx/ops/stft.hpp"
#include "onyx/ops/swi_glu.hpp"
#include "onyx/ops/swish.hpp"
#include "onyx/ops/unique.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using misc_ops = op_list<
    ops::Shrink,
    ops::Swish,
    ops::SwiGLU,
    ops::CumSum,
    ops::CumProd,
    ops::Det,
    ops::Einsum,
    ops::Unique,
    ops::Compress,
    ops::NonMaxSuppression,
    ops::RoiAlign,
    ops::RoiAlign_v10,
    ops::QuantizeLinear,
    ops::DequantizeLinear,
    ops::MatMulInteger,
    ops::QLinearMatMul,
    ops::ConvInteger,
    ops::QLinearConv,
    ops::DynamicQuantizeLinear,
    ops::DynamicQuantizeMatMul,
    ops::MatMulIntegerToFloat,
    ops::fused::DynamicQuantizeConv,
    ops::fused::ConvIntegerToFloat,
    ops::fused::DynamicQuantizeMatMul,
    ops::fused::MatMulIntegerToFloat,
    ops::HannWindow,
    ops::HammingWindow,
    ops::BlackmanWindow,
    ops::ReverseSequence,
    ops::BitCast,
    ops::CenterCropPad,
    ops::Col2Im,
    ops::AffineGrid,
    ops::GridSample,
    ops::DFT,
    ops::DFT_v17,
    ops::STFT,
    ops::MelWeightMatrix>;
// clang-format on

}  // namespace onyx
