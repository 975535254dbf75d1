// ops::SpaceToDepth: [N, C, H, W] -> [N, C*b^2, H/b, W/b], the inverse of
// DepthToSpace in DCR mode. Opsets 1-latest. All types; the kernel is a
// strided copy by width. Tested in test/unit/depth_to_space_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct SpaceToDepth {
  static constexpr std::string_view domain = "", name = "SpaceToDepth";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t blocksize = 0;
    static constexpr auto fields = std::tuple{field{"blocksize", &attributes::blocksize, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.blocksize <= 0) return c.fail("blocksize must be positive, not " + std::to_string(a.blocksize));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), unknown_dims(4));
      return ok();
    }
    if (x.rank() != 4) return c.fail("input must be 4-D [N, C, H, W], not " + x.str());
    for (int k : {2, 3})
      if (x.dims[k].known() && x.dims[k].value() % a.blocksize != 0)
        return c.fail("spatial dim " + x.dims[k].str() + " is not a multiple of blocksize " +
                      std::to_string(a.blocksize));
    const std::int64_t b = a.blocksize;
    c.set_output(0, c.input_type(0), sym_shape({x.dims[0], x.dims[1] * (b * b), floordiv(x.dims[2], b), floordiv(x.dims[3], b)}));
    return ok();
  }
};

}  // namespace onyx::ops
