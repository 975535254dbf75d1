// kernel<ops::Unique, cpu>: X viewed as [outer, n, inner] around the axis (no
// axis: [1, size, 1]); the n slices are stable-sorted by lexicographic
// comparison, equal neighbours grouped (the first of a group is its first
// occurrence), and the groups ordered by value or by first occurrence.
// O(n log n) slice comparisons of outer * inner elements each.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/unique.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T> status unique(const call<ops::Unique>& c) {
  const tensor& x = c.input(0);
  std::int64_t outer = 1, n = x.size(), inner = 1;
  int axis = -1;
  if (c.attrs().axis) {
    ONYX_ASSIGN(axis, ops::normalize_axis(*c.attrs().axis, x.rank()));
    n = x.dim(axis);
    for (int d = 0; d < axis; ++d) outer *= x.dim(d);
    for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  }
  const T* xs = x.data<T>();
  auto at = [&](std::int64_t slice, std::int64_t o, std::int64_t i) { return load(xs[(o * n + slice) * inner + i]); };
  // -1, 0, 1 as slice a is less than, equal to, greater than slice b.
  auto compare = [&](std::int64_t a, std::int64_t b) {
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        auto u = at(a, o, i), v = at(b, o, i);
        if (u < v) return -1;
        if (v < u) return 1;
      }
    return 0;
  };
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return compare(a, b) < 0; });
  std::vector<std::int64_t> first, counts, inverse(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || compare(order[k - 1], order[k]) != 0) {
      first.push_back(order[k]);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[order[k]] = static_cast<std::int64_t>(first.size()) - 1;
  }
  const auto m = static_cast<std::int64_t>(first.size());
  std::vector<std::int64_t> rank(m);  // rank[g]: where sorted group g goes in Y
  std::iota(rank.begin(), rank.end(), 0);
  if (!c.attrs().sorted) {
    std::vector<std::int64_t> by_first(m);
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(), [&](std::int64_t a, std::int64_t b) { return first[a] < first[b]; });
    for (std::int64_t p = 0; p < m; ++p) rank[by_first[p]] = p;
  }
  extents shape{m};
  if (axis >= 0) {
    shape = x.shape();
    shape[axis] = m;
  }
  tensor& y = c.allocate_output(0, x.type(), shape);
  T* ys = y.data<T>();
  std::vector<std::int64_t> indices(m), count_out(m);
  for (std::int64_t g = 0; g < m; ++g) {
    std::int64_t r = rank[g];
    indices[r] = first[g];
    count_out[r] = counts[g];
    for (std::int64_t o = 0; o < outer; ++o)
      std::copy_n(xs + (o * n + first[g]) * inner, inner, ys + (o * m + r) * inner);
  }
  for (auto& v : inverse) v = rank[v];
  auto emit = [&](int i, const std::vector<std::int64_t>& v) {
    if (!c.has_output(i)) return;
    tensor& t = c.allocate_output(i, dtype::int64, {static_cast<std::int64_t>(v.size())});
    std::copy(v.begin(), v.end(), t.data<std::int64_t>());
  };
  emit(1, indices);
  emit(2, inverse);
  emit(3, count_out);
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Unique, cpu> {
  static constexpr std::array types{ops::Unique::T};
  template <ops::signature S> static status run(const call<ops::Unique>& c) {
    return kernels::cpu::unique<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
