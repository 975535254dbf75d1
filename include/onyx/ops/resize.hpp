// ops::Resize: resamples X over some of its axes by nearest, N-linear or
// N-cubic interpolation. Output dims are floor(in * scale) from `scales`, or
// `sizes` directly (keep_aspect_ratio_policy not_larger/not_smaller scale all
// resized axes alike and round the sizes half up). Each output coordinate
// maps back to an input coordinate by coordinate_transformation_mode;
// tf_crop_and_resize reads the `roi` box and writes extrapolation_value where
// the coordinate falls outside the input.
// Opsets 11-latest in one struct: 13 made roi/scales optional and dropped
// tf_half_pixel_for_nn (still accepted here), 18 added antialias, axes and
// keep_aspect_ratio_policy, 19 half_pixel_symmetric. ops::Resize_v10 (opset
// 10) and ops::Upsample (opsets 7-9) expand into it.
// Kernel: nearest for every fixed-width type; linear/cubic (antialias
// included) for float32, float64, float16 and bfloat16 (computed in float32,
// float64 for float64). Tested in test/unit/resize_test.cpp.
#pragma once

#include <cmath>

#include "onyx/core/float_convert.hpp"
#include "onyx/ops/axes.hpp"

namespace onyx::ops {

namespace detail {

/// One resized axis: output length, scale (out/in as the coordinate transform
/// uses it) and the roi box [start, end] in normalized input coordinates.
struct resize_axis {
  std::int64_t out = 0;
  double scale = 1, roi_start = 0, roi_end = 1;
};

/// The per-axis geometry of a Resize node from its input shape and the values
/// of scales/sizes/roi (empty when absent). Fails on malformed arguments.
inline result<std::vector<resize_axis>> resize_geometry(const extents& in, const std::vector<double>& scales,
                                                        const std::vector<std::int64_t>& sizes,
                                                        const std::vector<double>& roi,
                                                        const std::vector<std::int64_t>& axes_attr,
                                                        std::string_view policy) {
  const std::size_t r = in.size();
  std::vector<int> axes;
  if (axes_attr.empty())
    for (std::size_t i = 0; i < r; ++i) axes.push_back(static_cast<int>(i));
  else {
    ONYX_ASSIGN(axes, normalize_axes(axes_attr, r, "axes entry"));
  }
  const std::size_t n = axes.size();
  auto fail = [](std::string m) { return status(errc::invalid_argument, std::move(m)); };
  if (!scales.empty() && !sizes.empty()) return fail("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) return fail("one of scales and sizes must be given");
  if (!scales.empty() && scales.size() != n)
    return fail("scales has " + std::to_string(scales.size()) + " entries, expected " + std::to_string(n));
  if (!sizes.empty() && sizes.size() != n)
    return fail("sizes has " + std::to_string(sizes.size()) + " entries, expected " + std::to_string(n));
  if (!roi.empty() && roi.size() != 2 * n)
    return fail("roi has " + std::to_string(roi.size()) + " entries, expected " + std::to_string(2 * n));
  std::vector<resize_axis> g(r);
  for (std::size_t i = 0; i < r; ++i) g[i].out = in[i];
  for (std::size_t k = 0; k < n; ++k) {
    auto& a = g[axes[k]];
    if (!roi.empty()) a.roi_start = roi[k], a.roi_end = roi[n + k];
    if (!scales.empty()) {
      if (!(scales[k] > 0)) return fail("scales entry " + std::to_string(k) + " must be positive");
      a.scale = scales[k];
      const double out = std::floor(scales[k] * static_cast<double>(in[axes[k]]));
      // Past 2^62 the extent is unrepresentable (and casting it undefined:
      // found by the model fuzzer); no allocation could hold it anyway.
      if (!(out < 4.6e18))
        return fail("scales entry " + std::to_string(k) + " (" + std::to_string(scales[k]) +
                    ") makes an output dim too large");
      a.out = static_cast<std::int64_t>(out);
    } else {
      if (sizes[k] < 0) return fail("sizes entry " + std::to_string(k) + " is negative");
      a.out = sizes[k];
      a.scale = in[axes[k]] ? static_cast<double>(sizes[k]) / static_cast<double>(in[axes[k]]) : 1.0;
    }
  }
  if (!sizes.empty() && policy != "stretch") {
    if (policy != "not_larger" && policy != "not_smaller")
      return fail("keep_aspect_ratio_policy must be stretch, not_larger or not_smaller, not '" + std::string(policy) +
                  "'");
    double s = g[axes[0]].scale;
    for (int ax : axes) s = policy == "not_larger" ? std::min(s, g[ax].scale) : std::max(s, g[ax].scale);
    for (int ax : axes) {
      g[ax].scale = s;
      g[ax].out = static_cast<std::int64_t>(s * static_cast<double>(in[ax]) + 0.5);
    }
  }
  return g;
}

/// The values of a known float tensor (scales, roi) as doubles.
inline std::vector<double> doubles_of(const tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.size()));
  onyx::widen(t, std::span<double>(v));
  return v;
}

}  // namespace detail

struct Resize {
  static constexpr std::string_view domain = "", name = "Resize";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 4}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::numeric | dtypes::boolean, T2 = dtypes::floats;
  struct attributes {
    std::int64_t antialias = 0;
    std::vector<std::int64_t> axes;
    std::string coordinate_transformation_mode = "half_pixel";
    float cubic_coeff_a = -0.75f;
    std::int64_t exclude_outside = 0;
    float extrapolation_value = 0.0f;
    std::string keep_aspect_ratio_policy = "stretch";
    std::string mode = "nearest";
    std::string nearest_mode = "round_prefer_floor";
    static constexpr auto fields = std::tuple{
        field{"antialias", &attributes::antialias},
        field{"axes", &attributes::axes},
        field{"coordinate_transformation_mode", &attributes::coordinate_transformation_mode},
        field{"cubic_coeff_a", &attributes::cubic_coeff_a},
        field{"exclude_outside", &attributes::exclude_outside},
        field{"extrapolation_value", &attributes::extrapolation_value},
        field{"keep_aspect_ratio_policy", &attributes::keep_aspect_ratio_policy},
        field{"mode", &attributes::mode},
        field{"nearest_mode", &attributes::nearest_mode}};
  };

  static status check(const attributes& a) {
    auto bad = [](std::string m) { return status(errc::invalid_graph, std::move(m)); };
    if (a.mode != "nearest" && a.mode != "linear" && a.mode != "cubic")
      return bad("mode must be nearest, linear or cubic, not '" + a.mode + "'");
    static constexpr std::string_view transforms[] = {"half_pixel",    "half_pixel_symmetric", "pytorch_half_pixel",
                                                      "align_corners", "asymmetric",           "tf_crop_and_resize",
                                                      "tf_half_pixel_for_nn"};
    if (std::find(std::begin(transforms), std::end(transforms), a.coordinate_transformation_mode) ==
        std::end(transforms))
      return bad("unknown coordinate_transformation_mode '" + a.coordinate_transformation_mode + "'");
    static constexpr std::string_view roundings[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
    if (std::find(std::begin(roundings), std::end(roundings), a.nearest_mode) == std::end(roundings))
      return bad("unknown nearest_mode '" + a.nearest_mode + "'");
    return ok();
  }

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(check(a));
    if (a.mode != "nearest" && !dtypes::floats.contains(c.input_type(0)))
      return c.fail(a.mode + " resize needs a floating-point input, got " + std::string(onyx::name(c.input_type(0))));
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, T2, "T2"));
    if (c.has_input(2)) ONYX_TRY(require_type(c, 2, dtypes::f32, "tensor(float)"));
    if (c.has_input(3)) ONYX_TRY(require_type(c, 3, dtypes::i64, "tensor(int64)"));
    const sym_shape& x = c.input_shape(0);
    const dtype t = c.input_type(0);
    if (!x.rank_known) {
      c.set_output(0, t, sym_shape::unknown_rank());
      return ok();
    }
    // An empty scales tensor means "use sizes" (opsets 11-12 required it).
    const tensor* scales = c.has_input(2) ? c.input_value(2) : nullptr;
    const bool scales_given = c.has_input(2) && !(scales && scales->size() == 0) &&
                              !(known_length(c, 2) && *known_length(c, 2) == 0);
    const bool sizes_given = c.has_input(3) && !(known_length(c, 3) && *known_length(c, 3) == 0);
    if (!scales_given && !sizes_given) return c.fail("one of scales and sizes must be given");
    auto sizes = sizes_given ? c.input_ints(3) : std::nullopt;
    if ((scales_given && !scales) || (sizes_given && !sizes) || !x.concrete()) {
      // Axes that are not resized keep their dims; the rest are unknown.
      std::vector<dim> out = x.dims;
      if (a.axes.empty())
        out = unknown_dims(x.rank()).dims;
      else {
        ONYX_ASSIGN(auto ax, normalize_axes(a.axes, x.rank(), "axes entry"));
        for (int i : ax) out[i] = dim::unknown();
      }
      c.set_output(0, t, sym_shape(std::move(out)));
      return ok();
    }
    std::vector<double> roi;  // empty when absent
    if (c.has_input(1) && c.input_value(1)) roi = detail::doubles_of(*c.input_value(1));
    auto g = detail::resize_geometry(*x.concrete_extents(), scales_given ? detail::doubles_of(*scales) : std::vector<double>{},
                                     sizes_given ? *sizes : std::vector<std::int64_t>{}, roi, a.axes,
                                     a.keep_aspect_ratio_policy);
    if (!g.ok()) return c.fail(g.error().message());
    extents out;
    for (auto& ax : *g) out.push_back(ax.out);
    c.set_output(0, t, sym_shape(out));
    return ok();
  }
};

/// Resize of opset 10: X and scales; nearest or linear with asymmetric
/// coordinates. Expands into Resize (nearest rounds down, as x / scale did).
struct Resize_v10 {
  static constexpr std::string_view domain = "", name = "Resize";
  static constexpr int since = 10, until = 10;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = Resize::T1;
  struct attributes {
    std::string mode = "nearest";
    static constexpr auto fields = std::tuple{field{"mode", &attributes::mode}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    c.set_output(0, c.input_type(0), x.rank_known ? unknown_dims(x.rank()) : sym_shape::unknown_rank());
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<attribute> attrs{
        {"mode", a.mode == "bilinear" ? std::string("linear") : a.mode},
        {"coordinate_transformation_mode", std::string("asymmetric")},
        {"nearest_mode", std::string("floor")}};
    ONYX_ASSIGN(auto outs, c.add("Resize", {c.input(0), -1, c.input(1)}, std::move(attrs)));
    c.set_output(0, outs[0]);
    return ok();
  }
};

/// Upsample (opsets 7-9, deprecated): Resize_v10's semantics; opset 7 gave
/// the scales as an attribute, 9 as an input. Expands into Resize.
struct Upsample {
  static constexpr std::string_view domain = "", name = "Upsample";
  static constexpr int since = 7, until = 9;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr dtype_set T = Resize::T1;
  struct attributes {
    std::string mode = "nearest";
    std::vector<float> scales;
    static constexpr auto fields =
        std::tuple{field{"mode", &attributes::mode}, field{"scales", &attributes::scales}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (!c.has_input(1) && a.scales.empty()) return c.fail("scales must be given as an input or an attribute");
    const sym_shape& x = c.input_shape(0);
    c.set_output(0, c.input_type(0), x.rank_known ? unknown_dims(x.rank()) : sym_shape::unknown_rank());
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    expand_context::ref scales = c.input_count() > 1 && c.input(1) >= 0
                                     ? c.input(1)
                                     : c.constant(tensor::from(a.scales, {static_cast<std::int64_t>(a.scales.size())}));
    std::vector<attribute> attrs{
        {"mode", a.mode == "bilinear" ? std::string("linear") : a.mode},
        {"coordinate_transformation_mode", std::string("asymmetric")},
        {"nearest_mode", std::string("floor")}};
    ONYX_ASSIGN(auto outs, c.add("Resize", {c.input(0), -1, scales}, std::move(attrs)));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
