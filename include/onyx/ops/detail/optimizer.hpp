// onyx/ops/detail/optimizer.hpp: the input and output layout the training
// optimizers (Adagrad, Momentum, Adam; domain ai.onnx.preview.training)
// share. Inputs: R (the learning rate, a scalar of T1), T (the update count,
// an int64 scalar), then `in_groups` lists of n tensors of T3 (X..., G...,
// then the optimizer's state tensors); outputs: `out_groups` lists of n
// tensors (X_new..., then the new states), each with its X's type and shape.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

inline constexpr dtype_set optimizer_floats = dtypes::f32 | dtypes::f64;

inline status optimizer_infer(infer_context& c, int in_groups, int out_groups) {
  const int tensors = c.input_count() - 2;
  if (tensors < in_groups || tensors % in_groups != 0)
    return c.fail("takes R, T and " + std::to_string(in_groups) + " lists of the same length, got " +
                  std::to_string(c.input_count()) + " inputs");
  const int n = tensors / in_groups;
  if (c.output_count() != out_groups * n)
    return c.fail("updates " + std::to_string(n) + " tensors, so it has " + std::to_string(out_groups * n) +
                  " outputs, got " + std::to_string(c.output_count()));
  ONYX_TRY(require_type(c, 0, optimizer_floats, "T1"));
  ONYX_TRY(require_type(c, 1, dtypes::i64, "T2"));
  for (int s : {0, 1})
    if (c.input_shape(s).rank_known && c.input_shape(s).rank() != 0)
      return c.fail(std::string(s == 0 ? "R" : "T") + " must be a scalar, got shape " + c.input_shape(s).str());
  for (int i = 0; i < n; ++i) {
    ONYX_TRY(require_type(c, 2 + i, optimizer_floats, "T3"));
    for (int g = 1; g < in_groups; ++g)
      if (c.input_type(2 + g * n + i) != c.input_type(2 + i))
        return c.fail("input " + std::to_string(2 + g * n + i) + " has type " +
                      std::string(name(c.input_type(2 + g * n + i))) + ", its X has " +
                      std::string(name(c.input_type(2 + i))));
    for (int g = 0; g < out_groups; ++g) c.set_output(g * n + i, c.input(2 + i));
  }
  return ok();
}

}  // namespace onyx::ops::detail
