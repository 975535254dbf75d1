// kernel<ops::TensorScatter, cpu>: copies past_cache, then writes each
// (prefix, sequence step) row of `update` at its write position. Per element
// width. A linear write past the cache fails with errc::out_of_range.
#pragma once

#include <algorithm>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/tensor_scatter.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E>
status tensor_scatter(const call<ops::TensorScatter>& c) {
  const tensor &cache = c.input(0), &update = c.input(1);
  const std::size_t rank = cache.rank();
  if (update.rank() != rank) return status(errc::invalid_argument, "past_cache and update must have the same rank");
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, rank));
  if (axis == 0) return status(errc::invalid_argument, "axis cannot be 0, the batch axis");
  for (std::size_t i = 0; i < rank; ++i)
    if (static_cast<int>(i) != axis ? update.dim(i) != cache.dim(i) : update.dim(i) > cache.dim(i))
      return status(errc::invalid_argument, "update " + sym_shape(update.shape()).str() + " does not fit past_cache " +
                                                sym_shape(cache.shape()).str());
  const std::int64_t batch = cache.dim(0), max_len = cache.dim(axis), len = update.dim(axis);
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= cache.dim(i);
  for (std::size_t i = axis + 1; i < rank; ++i) inner *= cache.dim(i);
  const bool circular = c.attrs().mode == "circular";

  std::vector<std::int64_t> where(static_cast<std::size_t>(batch), 0);
  if (c.has_input(2)) {
    where = int64s(c.input(2));
    if (static_cast<std::int64_t>(where.size()) != batch)
      return status(errc::invalid_argument, "write_indices has " + std::to_string(where.size()) +
                                                " entries, expected one per batch (" + std::to_string(batch) + ")");
  }
  for (std::size_t b = 0; b < where.size(); ++b)
    if (!circular && (where[b] < 0 || where[b] + len > max_len))
      return status(errc::out_of_range, "write_indices[" + std::to_string(b) + "] = " + std::to_string(where[b]) +
                                            " with " + std::to_string(len) + " update steps leaves the cache of " +
                                            std::to_string(max_len) + " (mode linear)");

  tensor& y = c.output(0);
  const E* src = cache.data<E>();
  E* dst = y.data<E>();
  if (src != dst) std::copy_n(src, cache.size(), dst);
  const E* up = update.data<E>();
  const std::int64_t per_batch = outer / std::max<std::int64_t>(batch, 1);
  parallel_for(c.pool(), outer, 1, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t o = first; o < last; ++o) {
      const std::int64_t start = where[static_cast<std::size_t>(o / per_batch)];
      for (std::int64_t s = 0; s < len; ++s) {
        std::int64_t at = start + s;
        if (circular) at = ((at % max_len) + max_len) % max_len;
        std::copy_n(up + (o * len + s) * inner, inner, dst + (o * max_len + at) * inner);
      }
    }
  });
  return ok();
}
}  // namespace kernels::cpu

template <>
struct kernel<ops::TensorScatter, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S>
  static status run(const call<ops::TensorScatter>& c) {
    return kernels::cpu::tensor_scatter<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
