// ops::Det: the determinant of each square matrix in X [..., M, M]; Y is [...].
// Opsets 11-latest (22 added bfloat16). Kernel (kernels/cpu/det.hpp): every
// float type, LU with partial pivoting in double. Tested in
// test/unit/det_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Det {
  static constexpr std::string_view domain = "", name = "Det";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    if (!x.rank_known) {
      c.set_output(0, c.input_type(0), x);
      return ok();
    }
    if (x.rank() < 2) return c.fail("X must have rank >= 2, not " + x.str());
    const dim &rows = x[x.rank() - 2], &cols = x[x.rank() - 1];
    if (rows.known() && cols.known() && rows.value() != cols.value())
      return c.fail("X must hold square matrices, not " + x.str());
    c.set_output(0, c.input_type(0), sym_shape(std::vector<dim>(x.dims.begin(), x.dims.end() - 2)));
    return ok();
  }
};

}  // namespace onyx::ops
