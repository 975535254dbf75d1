// kernels/cpu/broadcast.hpp: the one numpy-broadcasting engine of the CPU
// elementwise kernels (binary arithmetic, comparisons, logic, Where, PRelu,
// the variadic Sum/Max/Min/Mean, Clip with tensor bounds).
//
// Plan: the inputs are right-aligned to the output's rank, output dims of
// extent 1 are dropped, and adjacent dims are merged while every input is
// either dense or broadcast across both of them. What is left is usually one
// to three dims: same-shape and scalar-vs-tensor collapse to one dim
// (a single contiguous run per chunk), [N,C,H,W] + [C,1,1] to [N, C, H*W].
// Each input then has an element stride per collapsed dim, 0 where it is
// broadcast.
//
// Walk: the output is split into contiguous element ranges (parallel_for);
// each range is visited as rows of the innermost collapsed dim, where every
// input is either contiguous (stride 1) or one repeated element (stride 0).
// The row loops are specialized on that pattern so they vectorize; the outer
// dims advance as an odometer, once per row.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "onyx/core/dtype.hpp"
#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu {

/// Output elements per parallel chunk for one cheap arithmetic op per element.
inline constexpr std::int64_t elementwise_grain = grain_for(1);
/// Output elements per chunk for transcendental functions (8 work units each).
inline constexpr std::int64_t transcendental_grain = grain_for(8);

template <std::size_t N> struct broadcast_plan {
  static constexpr int max_rank = 16;
  int rank = 1;                                      // collapsed rank, >= 1
  std::array<std::int64_t, max_rank> dims{};         // collapsed output extents
  std::array<std::array<std::int64_t, max_rank>, N> strides{};  // per input, 0 = broadcast
  std::int64_t total = 1;

  /// True when input k is read contiguously along the innermost dim.
  bool inner_dense(std::size_t k) const { return strides[k][rank - 1] != 0; }
};

/// Plans the broadcast of `in` into `out`; fails when an input's extent is
/// neither 1 nor the output's (the shapes do not broadcast to `out`).
template <std::size_t N>
result<broadcast_plan<N>> plan_broadcast(const extents& out, const std::array<const extents*, N>& in) {
  broadcast_plan<N> p;
  const auto r = static_cast<std::int64_t>(out.size());
  std::uint32_t prev = ~0u;  // dense-pattern of the last kept dim
  int n = 0;
  for (std::int64_t d = 0; d < r; ++d) {
    std::uint32_t pattern = 0;
    for (std::size_t k = 0; k < N; ++k) {
      const extents& e = *in[k];
      if (static_cast<std::int64_t>(e.size()) > r)
        return status(errc::invalid_argument, "input " + std::to_string(k) + " of shape " + to_string(e) +
                                                  " has a higher rank than the output " + to_string(out));
      std::int64_t i = d - (r - static_cast<std::int64_t>(e.size()));
      std::int64_t ext = i < 0 ? 1 : e[static_cast<std::size_t>(i)];
      if (ext == out[d] && ext != 1)
        pattern |= 1u << k;
      else if (ext != 1)
        return status(errc::invalid_argument, "input " + std::to_string(k) + " of shape " + to_string(e) +
                                                  " does not broadcast to " + to_string(out));
    }
    if (out[d] == 1) continue;
    if (n > 0 && pattern == prev) {
      p.dims[n - 1] *= out[d];
    } else {
      if (n == broadcast_plan<N>::max_rank)
        return status(errc::unsupported, "broadcast to " + to_string(out) + " needs more than 16 collapsed dims");
      p.dims[n] = out[d];
      for (std::size_t k = 0; k < N; ++k) p.strides[k][n] = (pattern >> k) & 1u;  // marked, scaled below
      ++n;
      prev = pattern;
    }
  }
  if (n == 0) {  // a single element (or an empty output with a 0 extent handled above)
    p.dims[0] = 1;
    n = 1;
  }
  p.rank = n;
  for (std::size_t k = 0; k < N; ++k) {
    std::int64_t s = 1;
    for (int j = n - 1; j >= 0; --j)
      if (p.strides[k][j]) {
        p.strides[k][j] = s;
        s *= p.dims[j];
      }
  }
  p.total = element_count(out);
  return p;
}

/// Calls row(out_offset, in_offsets, length) for every innermost run of
/// output elements, split over `pool` in chunks of at least `grain` elements.
/// Within a row, input k advances by `inner_dense(k)` per element.
template <std::size_t N, class Row>
void for_each_row(const broadcast_plan<N>& p, const thread_pool* pool, std::int64_t grain, Row&& row) {
  const int r = p.rank;
  const std::int64_t inner = p.dims[r - 1];
  parallel_for(pool, p.total, grain, [&](std::int64_t begin, std::int64_t end) {
    std::array<std::int64_t, broadcast_plan<N>::max_rank> idx{};
    std::array<std::int64_t, N> base{};  // offsets of the row's first element, inner index excluded
    std::int64_t rest = begin;
    for (int j = r - 1; j >= 0; --j) {
      idx[j] = rest % p.dims[j];
      rest /= p.dims[j];
      if (j < r - 1)
        for (std::size_t k = 0; k < N; ++k) base[k] += idx[j] * p.strides[k][j];
    }
    std::int64_t pos = begin;
    while (pos < end) {
      const std::int64_t len = std::min(inner - idx[r - 1], end - pos);
      std::array<std::int64_t, N> off;
      for (std::size_t k = 0; k < N; ++k) off[k] = base[k] + idx[r - 1] * p.strides[k][r - 1];
      row(pos, off, len);
      pos += len;
      if (pos >= end) break;
      idx[r - 1] = 0;
      for (int j = r - 2; j >= 0; --j) {  // odometer over the outer dims
        for (std::size_t k = 0; k < N; ++k) base[k] += p.strides[k][j];
        if (++idx[j] < p.dims[j]) break;
        for (std::size_t k = 0; k < N; ++k) base[k] -= p.dims[j] * p.strides[k][j];
        idx[j] = 0;
      }
    }
  });
}

/// An element as its arithmetic type: half types widen to float; everything
/// else (strings included) is passed by reference.
template <class T> constexpr decltype(auto) widen(const T& v) {
  if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>)
    return to_float(v);
  else
    return (v);
}

/// y = f(a, b) with broadcasting; O, A, B are storage types.
template <class O, class A, class B, class F>
void broadcast_binary(const broadcast_plan<2>& p, O* y, const A* a, const B* b, F f, const thread_pool* pool,
                      std::int64_t grain = elementwise_grain) {
  const bool da = p.inner_dense(0), db = p.inner_dense(1);
  for_each_row(p, pool, grain, [&](std::int64_t pos, const std::array<std::int64_t, 2>& off, std::int64_t n) {
    O* out = y + pos;
    const A* x0 = a + off[0];
    const B* x1 = b + off[1];
    if (da && db) {
      for (std::int64_t i = 0; i < n; ++i) out[i] = store<O>(f(widen(x0[i]), widen(x1[i])));
    } else if (da) {
      const auto v = widen(*x1);
      for (std::int64_t i = 0; i < n; ++i) out[i] = store<O>(f(widen(x0[i]), v));
    } else if (db) {
      const auto v = widen(*x0);
      for (std::int64_t i = 0; i < n; ++i) out[i] = store<O>(f(v, widen(x1[i])));
    } else {
      const auto v = store<O>(f(widen(*x0), widen(*x1)));
      std::fill_n(out, n, v);
    }
  });
}

/// Plans and runs y = f(a, b) over tensors of storage types A, B into O.
template <class O, class A, class B, class F>
status broadcast_binary(const tensor& a, const tensor& b, tensor& y, F f, const thread_pool* pool,
                        std::int64_t grain = elementwise_grain) {
  ONYX_ASSIGN(auto plan, (plan_broadcast<2>(y.shape(), {&a.shape(), &b.shape()})));
  broadcast_binary(plan, y.data<O>(), a.data<A>(), b.data<B>(), f, pool, grain);
  return ok();
}

/// y = f(y, b), b broadcast into y's shape (the accumulation step of the
/// variadic ops; y is read and written in place).
template <class T, class F>
status accumulate_broadcast(tensor& y, const tensor& b, F f, const thread_pool* pool) {
  return broadcast_binary<T, T, T>(y, b, y, f, pool);
}

/// y = f(y) elementwise over a dense range, split over `pool`.
template <class O, class I, class F>
void map_unary(const I* x, O* y, std::int64_t n, F f, const thread_pool* pool, std::int64_t grain = elementwise_grain) {
  parallel_for(pool, n, grain, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) y[i] = store<O>(f(widen(x[i])));
  });
}

}  // namespace onyx::kernels::cpu
