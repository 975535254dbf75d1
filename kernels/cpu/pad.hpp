// kernel<ops::Pad, cpu>: every mode is a per-dim map from output coordinate
// to source coordinate (-1: the constant). Rows (all dims but the last)
// whose map hits -1 are filled; the others copy through the last dim's map,
// as one memcpy where that map is the identity run.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/pad.hpp"

namespace onyx {

namespace kernels::cpu {
/// Source coordinate of output coordinate o on a dim of extent d.
inline std::int64_t pad_source(std::int64_t i, std::int64_t d, std::string_view mode) {
  if (i >= 0 && i < d) return i;
  if (mode == "constant") return -1;
  if (mode == "edge") return i < 0 ? 0 : d - 1;
  if (mode == "wrap") return ((i % d) + d) % d;
  if (d == 1) return 0;  // reflect
  std::int64_t period = 2 * (d - 1), m = ((i % period) + period) % period;
  return m < d ? m : period - m;
}

template <class E> status pad(const call<ops::Pad>& c) {
  const tensor& x = c.input(0);
  const std::string& mode = c.attrs().mode;
  std::optional<std::vector<std::int64_t>> axes;
  if (c.has_input(3)) axes = int64s(c.input(3));
  ONYX_ASSIGN(auto p, ops::resolve_pads(x.rank(), int64s(c.input(1)), axes));
  tensor& y = c.output(0);
  if (y.size() == 0) return ok();
  if (x.size() == 0 && mode != "constant")
    return status(errc::invalid_argument, "cannot pad an empty input in mode " + mode);
  E fill{};
  if constexpr (!std::is_same_v<E, std::string>) {
    if (c.has_input(2) && c.input(2).size() > 0) {
      const tensor& v = c.input(2);
      if (v.type() == x.type()) fill = v.data<E>()[0];
      else store_number(x.type(), number_at(v, 0), fill);
    }
  } else {
    if (c.has_input(2) && c.input(2).size() > 0 && c.input(2).type() == dtype::string) fill = c.input(2).data<E>()[0];
  }
  const std::size_t r = x.rank();
  if (r == 0) {
    y.data<E>()[0] = x.data<E>()[0];
    return ok();
  }
  std::vector<std::vector<std::int64_t>> map(r);
  for (std::size_t k = 0; k < r; ++k)
    for (std::int64_t o = 0; o < y.dim(k); ++o) map[k].push_back(pad_source(o - p.begin[k], x.dim(k), mode));
  auto xs = strides_of(x.shape());
  const std::int64_t n = y.dim(r - 1), rows = y.size() / n;
  // The last dim's map is the identity over [lo, lo + len) -> [src0, ...).
  std::int64_t lo = std::clamp<std::int64_t>(p.begin[r - 1], 0, n);
  std::int64_t len = std::clamp<std::int64_t>(std::min(n, p.begin[r - 1] + x.dim(r - 1)) - lo, 0, n);
  const E* src = x.data<E>();
  E* dst = y.data<E>();
  parallel_for(c.pool(), rows, grain_for(n), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t row = b; row < e; ++row) {
      E* d = dst + row * n;
      std::int64_t rest = row, off = 0;
      bool constant = false;
      for (std::size_t k = r - 1; k-- > 0;) {
        std::int64_t s = map[k][rest % y.dim(k)];
        rest /= y.dim(k);
        if (s < 0) constant = true;
        off += s * xs[k];
      }
      if (constant) {
        std::fill_n(d, n, fill);
        continue;
      }
      const E* s = src + off;
      for (std::int64_t j = 0; j < lo; ++j) d[j] = map[r - 1][j] < 0 ? fill : s[map[r - 1][j]];
      if (len > 0) copy_n(s + map[r - 1][lo], len, d + lo);
      for (std::int64_t j = lo + len; j < n; ++j) d[j] = map[r - 1][j] < 0 ? fill : s[map[r - 1][j]];
    }
  });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Pad, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Pad>& c) {
    return kernels::cpu::pad<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
