// kernels/cuda/attention.cu: the softmax of attention scores with the mask,
// causal frontier and windows applied on the way (transformer_launch.hpp).
//
// The scores arrive scaled (the Q K^T product's alpha, kernels/cuda/
// attention.hpp) and are turned into probabilities in place, one block per
// (batch, head, query) row, in three passes over the row (max, sum of
// exponentials, write) that recompute the bias instead of storing it: a row
// is a sequence length long, so the re-reads hit L1/L2.
#include <type_traits>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/transformer_launch.hpp"

namespace onyx::kernels::cuda {

namespace {

/// M: the mask's element type (bool, or T).
template <class T, class M>
__global__ void attention_softmax_rows(attention_softmax_args a) {
  T* scores = static_cast<T*>(a.scores);
  const M* mask = static_cast<const M*>(a.mask);
  const std::int64_t rows = a.batches * a.heads * a.queries, keys = a.keys;
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const std::int64_t i = r % a.queries, bh = r / a.queries;
    const std::int64_t h = bh % a.heads, b = a.first_batch + bh / a.heads;
    T* row = scores + r * keys;
    const M* mrow = mask ? mask + b * a.mask_stride[0] + h * a.mask_stride[1] + i * a.mask_stride[2] : nullptr;
    // The biased score of key j, -inf where the key is hidden.
    auto score = [&](std::int64_t j) {
      bool hidden = (a.causal && j > i) || (a.left_window >= 0 && i - j > a.left_window) ||
                    (a.right_window >= 0 && j - i > a.right_window);
      float bias = 0.0f;
      if (mrow) {
        if (j >= a.mask_keys) {
          hidden = true;
        } else if constexpr (std::is_same_v<M, bool>) {
          hidden = hidden || !mrow[j * a.mask_stride[3]];
        } else {
          bias = load(mrow, j * a.mask_stride[3]);
        }
      }
      return hidden ? -INFINITY : load(row, j) + bias;
    };
    float m = -INFINITY;
    for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) m = fmaxf(m, score(j));
    m = block_max(m);
    if (m == -INFINITY) {  // no key to attend to: a zero row, never NaN (the same for the whole block)
      for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) store(row, j, 0.0f);
      continue;
    }
    float s = 0.0f;
    for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) s += expf(score(j) - m);
    const float inv = 1.0f / block_sum(s);
    // Each thread rewrites only the elements it read itself.
    for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) store(row, j, expf(score(j) - m) * inv);
  }
}

template <class T, class M>
status attention_softmax_as(const attention_softmax_args& a) {
  const std::int64_t rows = a.batches * a.heads * a.queries;
  attention_softmax_rows<T, M><<<row_blocks(rows), row_threads(a.keys), 0, stream()>>>(a);
  return launched("attention softmax");
}

}  // namespace

status attention_softmax(const attention_softmax_args& a) {
  if (a.batches * a.heads * a.queries == 0 || a.keys == 0) return ok();
  return dispatch_float(a.t, "Attention", [&]<class T>() {
    if (!a.mask || a.mask_type == a.t) return attention_softmax_as<T, T>(a);
    if (a.mask_type == dtype::boolean) return attention_softmax_as<T, bool>(a);
    return status(errc::unsupported, "Attention: attn_mask of type " + std::string(name(a.mask_type)) +
                                         " with scores of type " + std::string(name(a.t)) +
                                         " (the mask must be bool or the scores' type)");
  });
}

}  // namespace onyx::kernels::cuda
