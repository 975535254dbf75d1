// ops::AffineGrid: sampling grids from affine matrices. For size = (N, C, H, W)
// and theta (N, 2, 3), grid[n, h, w] = theta[n] * (x_w, y_h, 1); for
// (N, C, D, H, W) and theta (N, 3, 4), grid[n, d, h, w] = theta[n] *
// (x_w, y_h, z_d, 1). Base coordinates span [-1, 1]: pixel centers
// -1 + (2i + 1) / s, or -1 + 2i / (s - 1) with align_corners.
// Opsets 20-latest. Kernel (kernels/cpu/affine_grid.hpp): every float type,
// in double. Tested in test/unit/grid_sample_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct AffineGrid {
  static constexpr std::string_view domain = "", name = "AffineGrid";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  struct attributes {
    std::int64_t align_corners = 0;
    static constexpr auto fields = std::tuple{field{"align_corners", &attributes::align_corners}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, dtypes::i64, "size (int64)"));
    const sym_shape& theta = c.input_shape(0);
    if (theta.rank_known && theta.rank() != 3) return c.fail("theta must have rank 3, not " + theta.str());
    if (auto size = c.input_ints(1)) {
      if (size->size() != 4 && size->size() != 5)
        return c.fail("size must hold 4 (N, C, H, W) or 5 (N, C, D, H, W) values, not " + std::to_string(size->size()));
      const std::int64_t spatial = static_cast<std::int64_t>(size->size()) - 2;
      if (theta.rank_known &&
          ((theta[1].known() && theta[1].value() != spatial) || (theta[2].known() && theta[2].value() != spatial + 1)))
        return c.fail("theta " + theta.str() + " does not match a " + std::to_string(spatial) + "-D size");
      std::vector<dim> out{dim((*size)[0])};
      for (std::size_t i = 2; i < size->size(); ++i) out.push_back(dim((*size)[i]));
      out.push_back(dim(spatial));
      c.set_output(0, c.input_type(0), sym_shape(std::move(out)));
      return ok();
    }
    const sym_shape& size_shape = c.input_shape(1);
    if (size_shape.rank_known && size_shape.rank() == 1 && size_shape[0].known())
      c.set_output(0, c.input_type(0), unknown_dims(static_cast<std::size_t>(size_shape[0].value()) - 1));
    else
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
    return ok();
  }
};

}  // namespace onyx::ops
