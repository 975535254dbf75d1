// onyx/ops/detail/loss.hpp: shape rules NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss share: input [N, C, d1..dk], target [N, d1..dk],
// weight [C]; the loss is target-shaped (reduction none) or a scalar.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

inline status infer_loss(infer_context& c, dtype_set T, dtype_set Tind, const std::string& reduction) {
  ONYX_TRY(require_type(c, 0, T, "T"));
  ONYX_TRY(require_type(c, 1, Tind, "Tind"));
  if (c.has_input(2) && c.input_type(2) != c.input_type(0))
    return c.fail("weight has type " + std::string(onyx::name(c.input_type(2))) + " but the input has " +
                  std::string(onyx::name(c.input_type(0))));
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return c.fail("reduction must be none, sum or mean, got '" + reduction + "'");
  const sym_shape &x = c.input_shape(0), &t = c.input_shape(1);
  if (x.rank_known && x.rank() < 2) return c.fail("input must be at least [N, C], got " + x.str());
  if (x.rank_known && t.rank_known) {
    bool fits = t.rank() + 1 == x.rank() && (!x[0].known() || !t[0].known() || x[0] == t[0]);
    for (std::size_t d = 1; fits && d < t.rank(); ++d)
      fits = !x[d + 1].known() || !t[d].known() || x[d + 1] == t[d];
    if (!fits) return c.fail("target " + t.str() + " must be the input " + x.str() + " without its class axis");
  }
  if (c.has_input(2)) {
    const sym_shape& w = c.input_shape(2);
    if (w.rank_known && w.rank() != 1) return c.fail("weight must be 1D [C], got " + w.str());
  }
  c.set_output(0, c.input_type(0), reduction == "none" ? t : sym_shape(std::vector<dim>{}));
  return ok();
}

}  // namespace onyx::ops::detail
