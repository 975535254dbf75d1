// onyx/runtime/memory_plan.hpp: arena offsets by liveness, greedy by size.
//
// Each planned tensor is live from the step that writes it to the last step
// that reads it. Tensors are placed largest first at the lowest 64-byte
// aligned offset that overlaps no placed tensor live at the same time.
#pragma once

#include <algorithm>
#include <cstdint>
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

inline memory_plan plan_memory(const std::vector<live_range>& ranges) {
  auto align = [](std::size_t b) { return (b + tensor_alignment - 1) / tensor_alignment * tensor_alignment; };
  std::vector<int> order(ranges.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // Largest first, ties in their given order (stable without stable_sort's
  // merge code, which a trimmed program would hold only for this).
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return ranges[a].bytes != ranges[b].bytes ? ranges[a].bytes > ranges[b].bytes : a < b;
  });

  memory_plan plan;
  plan.offsets.assign(ranges.size(), 0);
  std::vector<int> placed;
  for (int i : order) {
    const auto& r = ranges[i];
    std::size_t size = align(std::max<std::size_t>(r.bytes, 1));
    // Intervals (in bytes) taken by tensors alive at the same time, by offset.
    std::vector<std::pair<std::size_t, std::size_t>> busy;
    for (int j : placed) {
      const auto& o = ranges[j];
      if (o.first <= r.last && r.first <= o.last)
        busy.emplace_back(plan.offsets[j], plan.offsets[j] + align(std::max<std::size_t>(o.bytes, 1)));
    }
    std::sort(busy.begin(), busy.end());
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
