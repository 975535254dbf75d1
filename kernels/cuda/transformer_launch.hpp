// kernels/cuda/transformer_launch.hpp: the launchers of the row-wise kernels
// a transformer needs besides its matrix products: Softmax and LogSoftmax,
// the layer normalizations (LayerNormalization, SkipLayerNormalization,
// RMSNormalization), in normalization.cu, and the scaled, masked softmax of
// attention scores, in attention.cu.
//
// Plain C++ declarations (no CUDA header), as in launch.hpp: work is queued
// on the calling thread's stream and the status reports launch errors only.
// Pointers are device pointers. Element types: float32 and float16 (`t`
// picks), computed in float.
#pragma once

#include <cstdint>

#include "onyx/core/dtype.hpp"
#include "onyx/core/status.hpp"

namespace onyx::kernels::cuda {

// ---------------------------------------------------------------------------
// Softmax (normalization.cu)

enum class softmax_kind : std::uint8_t { softmax, log_softmax };

/// y = softmax(x) or log_softmax(x) along the middle axis of x viewed as
/// [outer, len, inner] (row max subtracted first). y may be x.
status softmax(softmax_kind k, dtype t, const void* x, void* y, std::int64_t outer, std::int64_t len,
               std::int64_t inner);

// ---------------------------------------------------------------------------
// Layer normalizations (normalization.cu)

/// A parameter vector read along a row of `len`: element j of the row reads
/// p[(j / div) % period]. period == len, div == 1 is a full row; period == 1
/// one value; other (div, period) a parameter broadcast over the row's
/// leading or trailing dims (scale [C, 1, 1] over a row [C, H, W]).
struct row_param {
  const void* p = nullptr;  // null: none
  std::int64_t div = 1, period = 1;
};

/// Per row of `len` elements:
///   s = x_row + skip_row + add      (skip and add optional; add is [len])
///   y = (s - mean) * rsqrt(var + epsilon) * scale + shift
/// with mean and the biased variance of the row (rms: mean taken as 0, so
/// var is the mean square, and no shift). Rows are numbered r = o * inner + i
/// (o < outer, i < inner); row r of x starts at element o * x_stride[0] +
/// i * x_stride[1] (0 where x is broadcast), likewise skip; y and sum are
/// dense [outer * inner, len]. Optional outputs (null: not written): sum (s,
/// of type t), mean and inv_std (float, one per row).
struct layer_norm_args {
  dtype t = dtype::float32;
  std::int64_t outer = 0, inner = 1, len = 0;
  const void* x = nullptr;
  std::int64_t x_stride[2] = {0, 0};
  const void* skip = nullptr;
  std::int64_t skip_stride[2] = {0, 0};
  const void* add = nullptr;
  row_param scale, shift;
  float epsilon = 1e-5f;
  bool rms = false;
  void* y = nullptr;
  void* sum = nullptr;
  float* mean = nullptr;
  float* inv_std = nullptr;
};
status layer_norm(const layer_norm_args& a);

// ---------------------------------------------------------------------------
// Attention scores (attention.cu)

/// In place over `scores`, [batches * heads * queries, keys] rows (already
/// scaled by the Q K^T product's alpha), for the batch elements first_batch
/// .. first_batch + batches - 1:
///   p = softmax(scores + bias)
/// where bias is the mask's value (bool mask: 0 where true, -inf where false;
/// else a value of the scores' type), -inf for keys at or past mask_keys,
/// and -inf where is_causal hides the key (key j > query i) or a window
/// does (i - j > left_window or j - i > right_window; -1: no window). A row
/// whose keys are all hidden becomes zeros. The mask (null: none) is read at
/// b * mask_stride[0] + h * mask_stride[1] + i * mask_stride[2] + j * mask_stride[3].
struct attention_softmax_args {
  dtype t = dtype::float32;
  void* scores = nullptr;
  std::int64_t first_batch = 0, batches = 0, heads = 0, queries = 0, keys = 0;
  const void* mask = nullptr;
  dtype mask_type = dtype::float32;  // boolean, or t
  std::int64_t mask_stride[4] = {0, 0, 0, 0};
  std::int64_t mask_keys = 0;
  bool causal = false;
  std::int64_t left_window = -1, right_window = -1;
};
status attention_softmax(const attention_softmax_args& a);

}  // namespace onyx::kernels::cuda
