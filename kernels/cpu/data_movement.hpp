// kernels/cpu/data_movement.hpp: what the data-movement kernels share.
//
// Data movement (Transpose, Slice, Expand, Gather, ...) never looks at values,
// so it is instantiated per element width, not per dtype: `moved_t<T>` maps
// every dtype of one width to one unsigned word (strings stay std::string), and
// a kernel's `run<S>` just forwards to its width-templated body.
//
// `strided_copy` is the one engine behind Transpose, Slice, Expand, Tile,
// DepthToSpace and SpaceToDepth: it writes a contiguous output whose element
// at multi-index i comes from src[sum i_k * stride_k] (strides may be 0 for
// broadcast or negative for reversed slices).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onyx/core/dtype.hpp"
#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu {

/// The dtypes the data-movement kernels handle: every byte-addressed type.
inline constexpr dtype_set movable = dtypes::all - dtypes::sub_byte;

struct word128 {
  std::uint64_t lo, hi;
};

template <int Bytes> struct word_of;
template <> struct word_of<1> { using type = std::uint8_t; };
template <> struct word_of<2> { using type = std::uint16_t; };
template <> struct word_of<4> { using type = std::uint32_t; };
template <> struct word_of<8> { using type = std::uint64_t; };
template <> struct word_of<16> { using type = word128; };

template <dtype T> struct moved_as {
  using type = typename word_of<bit_width(T) / 8>::type;
};
template <> struct moved_as<dtype::string> {
  using type = std::string;
};
/// The type data movement copies one element of `T` as.
template <dtype T> using moved_t = typename moved_as<T>::type;

/// Calls `f.template operator()<E>()` with the element type of runtime dtype `t`.
template <class F> decltype(auto) with_element(dtype t, F&& f) {
  if (t == dtype::string) return f.template operator()<std::string>();
  switch (bit_width(t)) {
    case 8: return f.template operator()<std::uint8_t>();
    case 16: return f.template operator()<std::uint16_t>();
    case 32: return f.template operator()<std::uint32_t>();
    case 64: return f.template operator()<std::uint64_t>();
    default: return f.template operator()<word128>();
  }
}

/// Row-major strides of `shape`, in elements.
inline std::vector<std::int64_t> strides_of(const extents& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

/// `n` elements from `src` to `dst` (memcpy for words, assignment for strings).
template <class E> void copy_n(const E* src, std::int64_t n, E* dst) {
  if constexpr (std::is_trivially_copyable_v<E>) {
    if (n > 0) std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(E));
  } else {
    std::copy_n(src, n, dst);
  }
}

/// The plan step of a kernel whose output 0 is input 0's bytes under another
/// shape (Reshape, Flatten, Squeeze, Unsqueeze): the memory planner may give
/// output 0 input 0's buffer when the node is the input's last reader
/// (planned::overwrites_input), and copy_input then copies nothing.
struct same_bytes_plan {};
inline planned<same_bytes_plan> output_in_input_buffer() {
  planned<same_bytes_plan> r;
  r.overwrites_input = 0;
  return r;
}

/// Output's element count copied from input 0 (Reshape, Flatten, Squeeze...).
template <class E> status copy_input(const kernel_call& c) {
  const tensor& x = c.input(0);
  tensor& y = c.output(0);
  if (y.raw() == x.raw()) return ok();
  const E* src = x.data<E>();
  E* dst = y.data<E>();
  parallel_for(c.pool(), y.size(), grain_for(1),
               [&](std::int64_t b, std::int64_t e) { copy_n(src + b, e - b, dst + b); });
  return ok();
}

/// Merges neighbouring dims whose strides make them one run; drops size-1 dims.
inline void collapse_strided(extents& dims, std::vector<std::int64_t>& strides) {
  extents d;
  std::vector<std::int64_t> s;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!d.empty() && s.back() == strides[i] * dims[i]) {
      d.back() *= dims[i];
      s.back() = strides[i];
    } else {
      d.push_back(dims[i]);
      s.push_back(strides[i]);
    }
  }
  dims = std::move(d);
  strides = std::move(s);
}

/// dst[i] = src[sum_k i_k * strides[k]] over the row-major index space `dims`.
///
/// After collapsing, the last dim is the inner loop: memcpy when its stride is
/// 1, a fill when 0, a gather otherwise. When the second-to-last dim has
/// stride 1 instead (a batched 2D transpose: Transpose with the last two axes
/// swapped, DepthToSpace), the copy walks 32x32 tiles so reads and writes
/// both stay within a few cache lines instead of striding a whole column.
template <class E>
void strided_copy(const E* src, E* dst, extents dims, std::vector<std::int64_t> strides, const thread_pool* pool) {
  if (element_count(dims) == 0) return;
  collapse_strided(dims, strides);
  if (dims.empty()) {
    dst[0] = src[0];
    return;
  }
  const std::size_t r = dims.size();
  const std::int64_t n = dims[r - 1], sn = strides[r - 1];

  if constexpr (std::is_trivially_copyable_v<E>) {
    if (r >= 2 && strides[r - 2] == 1 && sn != 0 && n >= 8 && dims[r - 2] >= 8) {
      // Batched transpose: out[b][i][j] = src[b-offset + i + j * sn].
      const std::int64_t m = dims[r - 2];
      constexpr std::int64_t tile = 32;
      const std::int64_t tiles_m = (m + tile - 1) / tile, tiles_n = (n + tile - 1) / tile;
      const std::int64_t batch = element_count(extents(dims.begin(), dims.end() - 2));
      parallel_for(pool, batch * tiles_m * tiles_n, grain_for(tile * tile), [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t t = b; t < e; ++t) {
          std::int64_t bi = t / (tiles_m * tiles_n), ti = (t / tiles_n) % tiles_m, tj = t % tiles_n;
          std::int64_t off = 0, rest = bi;
          for (std::size_t k = r - 2; k-- > 0;) {
            off += (rest % dims[k]) * strides[k];
            rest /= dims[k];
          }
          const E* s = src + off;
          E* d = dst + bi * m * n;
          std::int64_t i1 = std::min(m, (ti + 1) * tile), j1 = std::min(n, (tj + 1) * tile);
          for (std::int64_t i = ti * tile; i < i1; ++i)
            for (std::int64_t j = tj * tile; j < j1; ++j) d[i * n + j] = s[i + j * sn];
        }
      });
      return;
    }
  }

  const std::int64_t rows = element_count(extents(dims.begin(), dims.end() - 1));
  parallel_for(pool, rows, grain_for(n), [&](std::int64_t b, std::int64_t e) {
    // Offset of row b by division, then an odometer step per row.
    std::vector<std::int64_t> idx(r - 1);
    std::int64_t off = 0, rest = b;
    for (std::size_t k = r - 1; k-- > 0;) {
      idx[k] = rest % dims[k];
      rest /= dims[k];
      off += idx[k] * strides[k];
    }
    for (std::int64_t row = b; row < e; ++row) {
      const E* s = src + off;
      E* d = dst + row * n;
      if (sn == 1)
        copy_n(s, n, d);
      else if (sn == 0)
        std::fill_n(d, n, *s);
      else
        for (std::int64_t j = 0; j < n; ++j) d[j] = s[j * sn];
      for (std::size_t k = r - 1; k-- > 0;) {
        off += strides[k];
        if (++idx[k] < dims[k]) break;
        off -= idx[k] * strides[k];
        idx[k] = 0;
      }
    }
  });
}

/// The multi-index of flat position `pos` in `shape`, as "[i,j,k]".
inline std::string position_str(std::int64_t pos, const extents& shape) {
  std::vector<std::int64_t> idx(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    idx[k] = shape[k] ? pos % shape[k] : 0;
    pos = shape[k] ? pos / shape[k] : 0;
  }
  std::string s = "[";
  for (std::size_t k = 0; k < idx.size(); ++k) s += (k ? "," : "") + std::to_string(idx[k]);
  return s + "]";
}

/// The error for index value `v` at flat position `pos` of an indices tensor
/// shaped `shape`, for an axis of extent `n`.
inline status index_error(std::string_view what, std::int64_t v, std::int64_t pos, const extents& shape,
                          std::int64_t n) {
  return status(errc::out_of_range, std::string(what) + " " + std::to_string(v) + " at position " +
                                        position_str(pos, shape) + " is out of range [" + std::to_string(-n) + ", " +
                                        std::to_string(n - 1) + "]");
}

/// An index tensor's value at position i as int64, any integer dtype.
template <class I> std::int64_t index_at(const tensor& t, std::int64_t i) {
  return static_cast<std::int64_t>(t.data<I>()[i]);
}

/// The values of a small integer tensor (shapes, axes, pads) as int64.
inline std::vector<std::int64_t> int64s(const tensor& t) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(t.size()));
  visit_numeric(
      t.type(),
      [&](auto zero) {
        const auto* p = t.data<decltype(zero)>();
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(load(p[i]));
      },
      [] {});
  return v;
}

/// Element `i` of a numeric tensor of any dtype, as double.
inline double number_at(const tensor& t, std::int64_t i) {
  return visit_numeric(
      t.type(), [&](auto zero) { return static_cast<double>(load(t.data<decltype(zero)>()[i])); }, [] { return 0.0; });
}

/// Writes `v` converted to numeric dtype `t` into `dst`, an element of `t`'s
/// width (bool: v != 0). Nothing is written when the widths differ.
template <class E> void store_number(dtype t, double v, E& dst) {
  visit_numeric(
      t,
      [&](auto zero) {
        const auto x = store<decltype(zero)>(v);
        if constexpr (sizeof x == sizeof(E)) std::memcpy(&dst, &x, sizeof x);
      },
      [] {});
}

/// The output, allocated by the kernel when inference could not size it.
inline tensor& output_sized(const kernel_call& c, int i, dtype t, const extents& shape) {
  value& v = c.output_value(i);
  if (v.is_tensor() && v.as_tensor().shape() == shape && v.as_tensor().type() == t) return v.as_tensor();
  return c.allocate_output(i, t, shape);
}

}  // namespace onyx::kernels::cpu
