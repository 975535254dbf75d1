// ops::DepthToSpace: [N, C, H, W] -> [N, C/b^2, H*b, W*b], moving blocks of
// channels into b x b spatial blocks; mode DCR (depth-column-row, default)
// or CRD. Opsets 1-latest (11 added mode). All types; the kernel is a
// strided copy by width. Tested in test/unit/depth_to_space_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct DepthToSpace {
  static constexpr std::string_view domain = "", name = "DepthToSpace";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::all;
  struct attributes {
    std::int64_t blocksize = 0;
    std::string mode = "DCR";
    static constexpr auto fields =
        std::tuple{field{"blocksize", &attributes::blocksize, true}, field{"mode", &attributes::mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.blocksize <= 0) return c.fail("blocksize must be positive, not " + std::to_string(a.blocksize));
    if (a.mode != "DCR" && a.mode != "CRD") return c.fail("mode '" + a.mode + "' is neither DCR nor CRD");
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), unknown_dims(4));
      return ok();
    }
    if (x.rank() != 4) return c.fail("input must be 4-D [N, C, H, W], not " + x.str());
    const std::int64_t bb = a.blocksize * a.blocksize;
    if (x.dims[1].known() && x.dims[1].value() % bb != 0)
      return c.fail("channels " + x.dims[1].str() + " are not a multiple of blocksize^2 = " + std::to_string(bb));
    c.set_output(0, c.input_type(0),
                 sym_shape({x.dims[0], floordiv(x.dims[1], bb), x.dims[2] * a.blocksize, x.dims[3] * a.blocksize}));
    return ok();
  }
};

}  // namespace onyx::ops
