// onyx/ops/detail/sliding_window.hpp: the window geometry Conv, ConvTranspose
// and the pooling ops share: auto_pad, pads, strides, dilations, ceil_mode.
//
// For each spatial axis a window of k taps, d apart, starts at o*s - pad_begin
// for output position o. Output extents follow the spec:
//   NOTSET     floor((in + pb + pe - ((k-1)d+1)) / s) + 1     (ceil with ceil_mode,
//              dropping a last window that would start in the end padding)
//   SAME_*     ceil(in / s), total pad (out-1)s + (k-1)d+1 - in split evenly,
//              the odd one at the end (UPPER) or the beginning (LOWER)
//   VALID      floor((in - ((k-1)d+1)) / s) + 1, no padding
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

enum class auto_pad { notset, same_upper, same_lower, valid };

inline result<auto_pad> parse_auto_pad(std::string_view s) {
  if (s == "NOTSET" || s.empty()) return auto_pad::notset;
  if (s == "SAME_UPPER") return auto_pad::same_upper;
  if (s == "SAME_LOWER") return auto_pad::same_lower;
  if (s == "VALID") return auto_pad::valid;
  return status(errc::invalid_graph, "auto_pad '" + std::string(s) + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
}

/// The window attributes of one node, checked against its spatial rank.
struct window_spec {
  auto_pad mode = auto_pad::notset;
  std::vector<std::int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
  bool ceil_mode = false;
};

/// The largest kernel extent, stride, dilation or pad accepted: far past any
/// real model, and small enough that the window arithmetic ((k - 1) d + 1,
/// pads plus extents) stays inside 64-bit integers.
inline constexpr std::int64_t max_window_value = std::int64_t{1} << 30;

/// Fills in defaults (strides and dilations 1, pads 0) and validates lengths
/// and values (at most max_window_value) for `rank` spatial axes.
inline result<window_spec> make_window_spec(std::size_t rank, std::string_view mode,
                                            std::vector<std::int64_t> kernel, std::vector<std::int64_t> strides,
                                            std::vector<std::int64_t> dilations, std::vector<std::int64_t> pads,
                                            bool ceil_mode = false) {
  window_spec w;
  ONYX_ASSIGN(w.mode, parse_auto_pad(mode));
  auto check = [&](std::vector<std::int64_t>& v, std::size_t n, std::int64_t fill, std::int64_t min,
                   const char* what) -> status {
    if (v.empty()) v.assign(n, fill);
    if (v.size() != n)
      return status(errc::invalid_graph, std::string(what) + " has " + std::to_string(v.size()) + " values, expected " +
                                             std::to_string(n) + " for " + std::to_string(rank) + " spatial axes");
    for (auto x : v)
      if (x < min)
        return status(errc::invalid_graph, std::string(what) + " value " + std::to_string(x) + " is below " +
                                               std::to_string(min));
      else if (x > max_window_value)
        return status(errc::invalid_graph, std::string(what) + " value " + std::to_string(x) + " is above " +
                                               std::to_string(max_window_value));
    return ok();
  };
  w.kernel = std::move(kernel);
  w.strides = std::move(strides);
  w.dilations = std::move(dilations);
  w.pads = std::move(pads);
  if (w.kernel.size() != rank)
    return status(errc::invalid_graph, "kernel_shape has " + std::to_string(w.kernel.size()) + " values, expected " +
                                           std::to_string(rank));
  ONYX_TRY(check(w.kernel, rank, 1, 1, "kernel_shape"));
  ONYX_TRY(check(w.strides, rank, 1, 1, "strides"));
  ONYX_TRY(check(w.dilations, rank, 1, 1, "dilations"));
  ONYX_TRY(check(w.pads, 2 * rank, 0, 0, "pads"));
  w.ceil_mode = ceil_mode;
  return w;
}

/// Symbolic output extent of axis `i` for input extent `in`.
inline dim window_output_dim(const window_spec& w, std::size_t i, const dim& in) {
  const std::int64_t s = w.strides[i], span = (w.kernel[i] - 1) * w.dilations[i] + 1;
  switch (w.mode) {
    case auto_pad::same_upper:
    case auto_pad::same_lower: return floordiv(in + dim(s - 1), dim(s));
    case auto_pad::valid: return floordiv(in - dim(span), dim(s)) + dim(1);
    case auto_pad::notset: break;
  }
  const std::size_t r = w.kernel.size();
  const dim padded = in + dim(w.pads[i] + w.pads[r + i] - span);
  if (!w.ceil_mode) return floordiv(padded, dim(s)) + dim(1);
  if (!in.known()) return dim::unknown();
  std::int64_t out = (padded.value() + s - 1) / s + 1;
  if ((out - 1) * s >= in.value() + w.pads[i]) --out;
  return out;
}

/// Concrete geometry of one axis.
struct window_axis {
  std::int64_t in, out, kernel, stride, dilation, pad_begin, pad_end;
};

/// The concrete geometry for input spatial extents `in`.
inline result<std::vector<window_axis>> window_geometry(const window_spec& w, std::span<const std::int64_t> in) {
  const std::size_t r = w.kernel.size();
  std::vector<window_axis> axes(r);
  for (std::size_t i = 0; i < r; ++i) {
    window_axis& a = axes[i];
    a.in = in[i];
    a.kernel = w.kernel[i];
    a.stride = w.strides[i];
    a.dilation = w.dilations[i];
    a.out = window_output_dim(w, i, dim(in[i])).value();
    const std::int64_t span = (a.kernel - 1) * a.dilation + 1;
    if (w.mode == auto_pad::same_upper || w.mode == auto_pad::same_lower) {
      const std::int64_t total = std::max<std::int64_t>(0, (a.out - 1) * a.stride + span - a.in);
      a.pad_begin = w.mode == auto_pad::same_upper ? total / 2 : total - total / 2;
      a.pad_end = total - a.pad_begin;
    } else if (w.mode == auto_pad::valid) {
      a.pad_begin = a.pad_end = 0;
    } else {
      a.pad_begin = w.pads[i];
      a.pad_end = w.pads[r + i];
    }
    if (a.out < 1)
      return status(errc::invalid_argument, "spatial axis " + std::to_string(i) + " of extent " +
                                                std::to_string(a.in) + " is smaller than the window (" +
                                                std::to_string(span) + " after dilation, with padding " +
                                                std::to_string(a.pad_begin) + "+" + std::to_string(a.pad_end) + ")");
  }
  return axes;
}

}  // namespace onyx::ops::detail
