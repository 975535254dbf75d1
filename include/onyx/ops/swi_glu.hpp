// ops::SwiGLU: Y = Swish_alpha(A) * B = A * sigmoid(alpha * A) * B, with A
// and B of one shape (no broadcasting).
// Opsets 28-latest. Kernel (kernels/cpu/swi_glu.hpp): every float type; it
// rounds the gate to the input type before the product, as the spec's
// function body (Swish, then Mul) does. Tested in
// test/unit/misc_elementwise_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct SwiGLU {
  static constexpr std::string_view domain = "", name = "SwiGLU";
  static constexpr int since = 28, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float alpha = 1.0f;
    static constexpr auto fields = std::tuple{field{"alpha", &attributes::alpha}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_same_type(c, 0, 1, T, "T"));
    const sym_shape &a = c.input_shape(0), &b = c.input_shape(1);
    if (!a.rank_known || !b.rank_known) {
      c.set_output(0, c.input_type(0), a.rank_known ? a : b);
      return ok();
    }
    if (a.rank() != b.rank()) return c.fail("A " + a.str() + " and B " + b.str() + " must have the same shape");
    std::vector<dim> y;
    for (std::size_t i = 0; i < a.rank(); ++i) {
      if (a[i].known() && b[i].known() && a[i].value() != b[i].value())
        return c.fail("A " + a.str() + " and B " + b.str() + " must have the same shape");
      y.push_back(a[i].known() ? a[i] : b[i]);
    }
    c.set_output(0, c.input_type(0), sym_shape(std::move(y)));
    return ok();
  }
};

}  // namespace onyx::ops
