// ops::Col2Im: sums column blocks back into an image (torch's fold): input
// [N, C * prod(block_shape), L] with the L blocks enumerated row-major over
// the sliding-window grid of image_shape (with pads, strides, dilations);
// each block element adds into its image position. Output [N, C, image...].
// Opsets 18-latest. The output extents need image_shape (known at inference
// when it is a constant).
// Kernel (kernels/cpu/col2im.hpp): float32, float64, float16/bfloat16 (in
// float), int32, int64. Tested in test/unit/col2im_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Col2Im {
  static constexpr std::string_view domain = "", name = "Col2Im";
  static constexpr int since = 18, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64;
  struct attributes {
    std::vector<std::int64_t> dilations, pads, strides;
    static constexpr auto fields =
        std::tuple{field{"dilations", &attributes::dilations}, field{"pads", &attributes::pads},
                   field{"strides", &attributes::strides}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "tensor(int64)"));
    ONYX_TRY(require_type(c, 2, dtypes::i64, "tensor(int64)"));
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 3) return c.fail("input must be [N, C * prod(block_shape), L], got " + x.str());
    auto image = c.input_ints(1);
    auto block = c.input_ints(2);
    if (image && block && image->size() != block->size())
      return c.fail("image_shape and block_shape have different lengths");
    if (!image) {
      const sym_shape& s = c.input_shape(1);
      if (s.rank_known && s.rank() == 1 && s[0].known())
        c.set_output(0, c.input_type(0), sym_shape(std::vector<dim>(2 + s[0].value(), dim::unknown())));
      else
        c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    std::vector<dim> y{x.rank_known ? x[0] : dim::unknown(), dim::unknown()};
    if (block && x.rank_known && x[1].known()) {
      std::int64_t per = 1;
      for (auto b : *block) per *= b;
      if (per <= 0 || x[1].value() % per != 0)
        return c.fail("input channels " + x[1].str() + " are not a multiple of prod(block_shape) = " +
                      std::to_string(per));
      y[1] = dim(x[1].value() / per);
    }
    for (auto v : *image) y.push_back(dim(v));
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
