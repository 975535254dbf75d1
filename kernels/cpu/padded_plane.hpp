// kernels/cpu/padded_plane.hpp: one channel's input plane, padded and split
// by phase, as the ISA row kernel f32_dwconv reads it.
//
// Rows of row_stride floats; within a row, padded column q sits at
// (q % stride_w) * phase_stride + q / stride_w, so each tap of a strided
// window reads contiguous floats (tap j at tap_offset[j] from the row start
// plus the output column). Each phase has 16 floats of slack past its last
// tap, for a kernel's whole-vector reads. Only windows with dilation 1 along
// W and at most 16 taps along W fit. The padding (the same for every channel)
// is filled once per buffer; copy_plane then writes only the image part.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/ops/detail/sliding_window.hpp"

namespace onyx::kernels::cpu {

struct padded_plane {
  std::int64_t rows = 0, phase_stride = 0, row_stride = 0;
  std::int64_t slot_elements = 0;  // floats of one buffer, rounded so buffers start a cache line apart
  std::int64_t tap_offset[16] = {};
};

/// Whether a padded copy of one channel, `padded` floats (counted in double:
/// a vast padding must not overflow), is worth making for an input plane of
/// in_h x in_w: at most twice the input plus 4096 floats. A window whose
/// padding dwarfs the image (a dilation of 2^30 over a 4x4 map, every tap
/// but the centre in the padding) takes a path that skips the padding
/// instead of laying out 2^62 floats of it. The direct convolutions
/// (conv_direct.hpp, q8_conv_direct) ask the same.
inline bool padded_copy_fits(double padded, std::int64_t in_h, std::int64_t in_w) {
  return padded <= 2.0 * static_cast<double>(in_h) * static_cast<double>(in_w) + 4096.0;
}

/// plane_extent (below) computed in double, so that a vast padding, stride or
/// dilation cannot overflow the check that rejects it.
inline double plane_extent_bound(const ops::detail::window_axis& ax) {
  return std::max(static_cast<double>(ax.in) + static_cast<double>(ax.pad_begin) + static_cast<double>(ax.pad_end),
                  (static_cast<double>(ax.out) - 1) * static_cast<double>(ax.stride) +
                      (static_cast<double>(ax.kernel) - 1) * static_cast<double>(ax.dilation) + 1);
}

/// Whether a 2-D window fits the layout: dilation 1, at most 16 taps and a
/// stride of at most 64 along W, and a plane of at most 2^40 floats (a
/// hostile model's stride of 7e18 would overflow the layout's arithmetic;
/// such windows take the general path) and padded_copy_fits. The bounds are
/// computed in double.
inline bool fits_padded_plane(const ops::detail::window_axis& ah, const ops::detail::window_axis& aw) {
  if (aw.dilation != 1 || aw.kernel > 16 || aw.stride < 1 || aw.stride > 64 || ah.stride < 1 || ah.dilation < 1)
    return false;
  const double row = (plane_extent_bound(aw) / static_cast<double>(aw.stride) + 17) * static_cast<double>(aw.stride);
  const double plane = plane_extent_bound(ah) * row;
  return plane <= 1099511627776.0 && padded_copy_fits(plane, ah.in, aw.in);
}

/// Positions along one axis that a padded plane covers: the padded input, or
/// every window's reach where that goes further (ceil_mode).
inline std::int64_t plane_extent(const ops::detail::window_axis& ax) {
  return std::max(ax.in + ax.pad_begin + ax.pad_end, (ax.out - 1) * ax.stride + (ax.kernel - 1) * ax.dilation + 1);
}

/// The layout for a 2-D window (axes[0] along H, axes[1] along W) that fits;
/// the plane covers the padding and any window past it (ceil_mode).
inline padded_plane make_padded_plane(const ops::detail::window_axis& ah, const ops::detail::window_axis& aw) {
  padded_plane p;
  p.rows = plane_extent(ah);
  p.phase_stride = (plane_extent(aw) + aw.stride - 1) / aw.stride + 16;
  p.row_stride = p.phase_stride * aw.stride;
  p.slot_elements = (p.rows * p.row_stride + 15) / 16 * 16 + 16;
  for (std::int64_t j = 0; j < aw.kernel; ++j) p.tap_offset[j] = (j % aw.stride) * p.phase_stride + j / aw.stride;
  return p;
}

/// The plane for isa::table::f32_dwconv_w2: a window strided along W laid
/// out as for stride 1 (the taps are split from each row in registers), with
/// the slack past each row that kernel reads. Copy into it with
/// copy_plane(p, ah, unit_stride(aw), ...).
inline padded_plane make_unphased_plane(const ops::detail::window_axis& ah, const ops::detail::window_axis& aw,
                                        std::int64_t slack) {
  padded_plane p;
  p.rows = plane_extent(ah);
  p.phase_stride = p.row_stride = plane_extent(aw) + slack;
  p.slot_elements = (p.rows * p.row_stride + 15) / 16 * 16 + 16;
  for (std::int64_t j = 0; j < aw.kernel; ++j) p.tap_offset[j] = j;
  return p;
}

/// `a` with stride 1: copy_plane then copies rows whole (make_unphased_plane).
inline ops::detail::window_axis unit_stride(ops::detail::window_axis a) {
  a.stride = 1;
  return a;
}

/// Fills a whole buffer with the padding value (once per buffer).
inline void fill_padding(const padded_plane& p, float* buf, float value) {
  std::fill_n(buf, p.rows * p.row_stride, value);
}

/// Copies the ah.in x aw.in plane x into the image part of buf (the phases
/// of a strided row by the ISA's f32_strided_copy).
inline void copy_plane(const padded_plane& p, const ops::detail::window_axis& ah, const ops::detail::window_axis& aw,
                       const float* x, float* buf, const isa::table& t) {
  float* const image = buf + ah.pad_begin * p.row_stride;
  if (aw.stride == 1) {
    for (std::int64_t iy = 0; iy < ah.in; ++iy) std::copy_n(x + iy * aw.in, aw.in, image + iy * p.row_stride + aw.pad_begin);
    return;
  }
  // Phase by phase, so the divisions are per phase, not per row (they were
  // most of a strided MaxPool's copy).
  for (std::int64_t ph = 0; ph < aw.stride; ++ph) {
    // Input columns i with (i + pad_begin) % stride == ph land in phase ph.
    const std::int64_t i0 = ((ph - aw.pad_begin) % aw.stride + aw.stride) % aw.stride;
    if (i0 >= aw.in) continue;
    const std::int64_t offset = ph * p.phase_stride + (i0 + aw.pad_begin) / aw.stride;
    const std::int64_t count = (aw.in - i0 + aw.stride - 1) / aw.stride;
    for (std::int64_t iy = 0; iy < ah.in; ++iy)
      t.f32_strided_copy(x + iy * aw.in + i0, aw.stride, count, image + iy * p.row_stride + offset);
  }
}

/// The window over `buf` (laid out by `p`) for axes ah, aw, writing at y.
inline void set_window(isa::plane_window& w, const padded_plane& p, const ops::detail::window_axis& ah,
                       const ops::detail::window_axis& aw, const float* buf, float* y) {
  w.plane = buf;
  w.row_stride = p.row_stride;
  w.stride_h = ah.stride;
  w.dilation_h = ah.dilation;
  w.kh = ah.kernel;
  w.kw = aw.kernel;
  w.tap_offset = p.tap_offset;
  w.y = y;
  w.out_h = ah.out;
  w.out_w = aw.out;
}

}  // namespace onyx::kernels::cpu
