// ops::GridSample: Y[n, c, p] = X[n, c] sampled at grid[n, p] (normalized
// coordinates in [-1, 1], last component first: (x, y, ...) index the last
// spatial axis first), for N-d X [N, C, D1..Dr] and grid [N, P1..Pr, r].
// mode: linear (separable, 2 taps per axis), nearest (round half to even),
// cubic (Keys, a = -0.75, 4 taps per axis); opset 16's "bilinear" and
// "bicubic" are read as linear and cubic. padding_mode: zeros, border
// (clamp), reflection (mirror at the borders). align_corners maps -1 and 1
// to the corner pixels' centres (else to their outer edges). All as the
// reference implementation (onnx/reference/ops/op_grid_sample.py).
// Opsets 16-latest (20 made it N-d and renamed the modes).
// Kernel (kernels/cpu/grid_sample.hpp): float32, float64, float16/bfloat16
// X (in double), any float grid. Tested in test/unit/grid_sample_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct GridSample {
  static constexpr std::string_view domain = "", name = "GridSample";
  static constexpr int since = 16, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats, T2 = dtypes::floats;
  struct attributes {
    std::int64_t align_corners = 0;
    std::string mode = "linear";
    std::string padding_mode = "zeros";
    static constexpr auto fields =
        std::tuple{field{"align_corners", &attributes::align_corners}, field{"mode", &attributes::mode},
                   field{"padding_mode", &attributes::padding_mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    static constexpr std::string_view modes[] = {"linear", "nearest", "cubic", "bilinear", "bicubic"};
    if (std::find(std::begin(modes), std::end(modes), a.mode) == std::end(modes))
      return c.fail("mode '" + a.mode + "' is none of linear, nearest, cubic");
    if (a.padding_mode != "zeros" && a.padding_mode != "border" && a.padding_mode != "reflection")
      return c.fail("padding_mode '" + a.padding_mode + "' is none of zeros, border, reflection");
    const sym_shape& x = c.input_shape(0);
    const sym_shape& g = c.input_shape(1);
    if (!x.rank_known || !g.rank_known) {
      c.set_output(0, c.input_type(0), sym_shape::unknown_rank());
      return ok();
    }
    if (x.rank() < 3 || g.rank() != x.rank() || (g[g.rank() - 1].known() && g[g.rank() - 1].value() != std::int64_t(x.rank()) - 2))
      return c.fail("X " + x.str() + " and grid " + g.str() + " must be [N, C, D1..Dr] and [N, P1..Pr, r]");
    std::vector<dim> y{x[0], x[1]};
    for (std::size_t i = 1; i + 1 < g.rank(); ++i) y.push_back(g[i]);
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
