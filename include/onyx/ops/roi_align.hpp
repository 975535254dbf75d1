// ops::RoiAlign: for each region of interest (x1, y1, x2, y2) in `rois` on
// image batch_indices[r], an output_height x output_width grid of bins, each
// the average (or max) of sampling_ratio^2 bilinear samples (ceil(bin size)
// per axis when sampling_ratio is 0). Coordinates are scaled by
// spatial_scale and, in half_pixel mode, shifted by -0.5. Max mode takes the
// largest weighted corner, as ONNX's reference and ORT do.
// Opsets 16-latest; ops::RoiAlign_v10 (10-15, no half_pixel) expands into it
// with coordinate_transformation_mode = "output_half_pixel".
// Kernel (kernels/cpu/roi_align.hpp): every float type, in double.
// Tested in test/unit/roi_align_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

namespace detail {
/// Checks the inputs and sets Y = (num_rois, C, oh, ow).
inline status roi_align_infer(infer_context& c, dtype_set allowed, std::int64_t oh, std::int64_t ow) {
  if (oh < 1 || ow < 1) return c.fail("output_height and output_width must be positive");
  ONYX_TRY(require_type(c, 0, allowed, "T1"));
  if (c.input_type(1) != c.input_type(0)) return c.fail("rois must have X's type");
  ONYX_TRY(require_type(c, 2, dtypes::i64, "batch_indices (int64)"));
  const sym_shape &x = c.input_shape(0), &rois = c.input_shape(1), &idx = c.input_shape(2);
  if (x.rank_known && x.rank() != 4) return c.fail("X must be (N, C, H, W), not " + x.str());
  if (rois.rank_known && (rois.rank() != 2 || (rois[1].known() && rois[1].value() != 4)))
    return c.fail("rois must be (num_rois, 4), not " + rois.str());
  if (idx.rank_known && idx.rank() != 1) return c.fail("batch_indices must be (num_rois), not " + idx.str());
  dim r = rois.rank_known ? rois[0] : dim::unknown();
  if (!r.known() && idx.rank_known) r = idx[0];
  c.set_output(0, c.input_type(0), sym_shape({r, x.rank_known ? x[1] : dim::unknown(), dim(oh), dim(ow)}));
  return ok();
}
}  // namespace detail

struct RoiAlign {
  static constexpr std::string_view domain = "", name = "RoiAlign";
  static constexpr int since = 16, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  struct attributes {
    std::string coordinate_transformation_mode = "half_pixel", mode = "avg";
    std::int64_t output_height = 1, output_width = 1, sampling_ratio = 0;
    float spatial_scale = 1.0f;
    static constexpr auto fields =
        std::tuple{field{"coordinate_transformation_mode", &attributes::coordinate_transformation_mode},
                   field{"mode", &attributes::mode},
                   field{"output_height", &attributes::output_height},
                   field{"output_width", &attributes::output_width},
                   field{"sampling_ratio", &attributes::sampling_ratio},
                   field{"spatial_scale", &attributes::spatial_scale}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.coordinate_transformation_mode != "half_pixel" && a.coordinate_transformation_mode != "output_half_pixel")
      return c.fail("coordinate_transformation_mode must be half_pixel or output_half_pixel, not \"" +
                    a.coordinate_transformation_mode + "\"");
    if (a.mode != "avg" && a.mode != "max") return c.fail("mode must be avg or max, not \"" + a.mode + "\"");
    if (a.sampling_ratio < 0) return c.fail("sampling_ratio must not be negative");
    return detail::roi_align_infer(c, T1, a.output_height, a.output_width);
  }
};

struct RoiAlign_v10 {
  static constexpr std::string_view domain = "", name = "RoiAlign";
  static constexpr int since = 10, until = 15;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::f16 | dtypes::f32 | dtypes::f64;
  struct attributes {
    std::string mode = "avg";
    std::int64_t output_height = 1, output_width = 1, sampling_ratio = 0;
    float spatial_scale = 1.0f;
    static constexpr auto fields =
        std::tuple{field{"mode", &attributes::mode}, field{"output_height", &attributes::output_height},
                   field{"output_width", &attributes::output_width},
                   field{"sampling_ratio", &attributes::sampling_ratio},
                   field{"spatial_scale", &attributes::spatial_scale}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return detail::roi_align_infer(c, T1, a.output_height, a.output_width);
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto y, c.add("RoiAlign", {c.input(0), c.input(1), c.input(2)},
                              {attribute{"coordinate_transformation_mode", std::string("output_half_pixel")},
                               attribute{"mode", a.mode}, attribute{"output_height", a.output_height},
                               attribute{"output_width", a.output_width},
                               attribute{"sampling_ratio", a.sampling_ratio},
                               attribute{"spatial_scale", a.spatial_scale}}));
    c.set_output(0, y[0]);
    return ok();
  }
};

}  // namespace onyx::ops
