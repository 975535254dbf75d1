// onyx/runtime/memory_plan.hpp: arena offsets by liveness, greedy by size.
//
// Each planned tensor is live from the step that writes it to the last step
// that reads it. Tensors are placed largest first at the lowest 64-byte
// aligned offset that overlaps no placed tensor live at the same time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "onyx/core/tensor.hpp"

namespace onyx {

struct live_range {
  int value;        // value id
  int first, last;  // steps, inclusive
  std::size_t bytes;
};

struct memory_plan {
  std::vector<std::size_t> offsets;  // per live_range, same order
  std::size_t arena_bytes = 0;
};

namespace memory_plan_detail {
/// Sorts `v` ascending by `T`'s operator<, through libc's qsort: one call
/// instead of an instantiation of std::sort per element type. Every order
/// sorted here is total, so the result is std::sort's.
template <class T> void sort(std::vector<T>& v) {
  if (v.size() < 2) return;  // an empty vector's data() may be null, which qsort must not get
  std::qsort(v.data(), v.size(), sizeof(T), [](const void* x, const void* y) {
    const T& a = *static_cast<const T*>(x);
    const T& b = *static_cast<const T*>(y);
    return a < b ? -1 : b < a ? 1 : 0;
  });
}
}  // namespace memory_plan_detail

inline memory_plan plan_memory(const std::vector<live_range>& ranges) {
  auto align = [](std::size_t b) { return (b + tensor_alignment - 1) / tensor_alignment * tensor_alignment; };
  // Largest first, ties in their given order: (-bytes, index) ascending.
  std::vector<std::pair<std::size_t, std::size_t>> order(ranges.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = {~ranges[i].bytes, i};
  memory_plan_detail::sort(order);

  memory_plan plan;
  plan.offsets.assign(ranges.size(), 0);
  std::vector<std::size_t> placed;
  // Intervals (in bytes) taken by tensors alive at the same time, by offset.
  std::vector<std::pair<std::size_t, std::size_t>> busy;
  for (auto [key, i] : order) {
    const auto& r = ranges[i];
    std::size_t size = align(std::max<std::size_t>(r.bytes, 1));
    busy.clear();
    for (std::size_t j : placed) {
      const auto& o = ranges[j];
      if (o.first <= r.last && r.first <= o.last)
        busy.emplace_back(plan.offsets[j], plan.offsets[j] + align(std::max<std::size_t>(o.bytes, 1)));
    }
    memory_plan_detail::sort(busy);
    std::size_t offset = 0;
    for (auto [b, e] : busy) {
      if (offset + size <= b) break;
      offset = std::max(offset, e);
    }
    plan.offsets[i] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + size);
    placed.push_back(i);
  }
  return plan;
}

}  // namespace onyx
