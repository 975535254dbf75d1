// ops::DeformConv: 2-D convolution whose taps are displaced by learned
// offsets. Tap (kh, kw) of output (i, j) samples X bilinearly (zeros outside)
// at (i * stride_h - pad_top + kh * dilation_h + offset_h,
//     j * stride_w - pad_left + kw * dilation_w + offset_w),
// scaled by `mask` when given; channels share offsets within each of
// `offset_group` groups. offset is (N, offset_group * kH * kW * 2, oH, oW),
// (dy, dx) pairs; mask is (N, offset_group * kH * kW, oH, oW).
// Opsets 19-latest (22 added bfloat16). Kernel (kernels/cpu/deform_conv.hpp):
// every float type, in double. Tested in test/unit/deform_conv_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct DeformConv {
  static constexpr std::string_view domain = "", name = "DeformConv";
  static constexpr int since = 19, until = latest;
  static constexpr arity inputs{3, 5}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::vector<std::int64_t> dilations, kernel_shape, pads, strides;
    std::int64_t group = 1, offset_group = 1;
    static constexpr auto fields = std::tuple{
        field{"dilations", &attributes::dilations}, field{"kernel_shape", &attributes::kernel_shape},
        field{"pads", &attributes::pads},           field{"strides", &attributes::strides},
        field{"group", &attributes::group},         field{"offset_group", &attributes::offset_group}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i = 1; i < c.input_count(); ++i)
      if (c.has_input(i) && c.input_type(i) != c.input_type(0))
        return c.fail("input " + std::to_string(i) + " must have X's type");
    if (a.group < 1 || a.offset_group < 1) return c.fail("group and offset_group must be positive");
    const sym_shape &x = c.input_shape(0), &w = c.input_shape(1), &off = c.input_shape(2);
    if (x.rank_known && x.rank() != 4) return c.fail("only 2-D DeformConv is supported; X is " + x.str());
    if (w.rank_known && w.rank() != 4) return c.fail("W must be (M, C / group, kH, kW), not " + w.str());
    if (off.rank_known && off.rank() != 4) return c.fail("offset must be (N, ..., oH, oW), not " + off.str());
    // The output's spatial dims are the offset's.
    c.set_output(0, c.input_type(0),
                 sym_shape({x.rank_known ? x[0] : dim::unknown(), w.rank_known ? w[0] : dim::unknown(),
                            off.rank_known ? off[2] : dim::unknown(), off.rank_known ? off[3] : dim::unknown()}));
    return ok();
  }
};

}  // namespace onyx::ops
