// ops::GRU: gated recurrent unit, gates z, r, h (weights stacked in that
// order):
//   zt = f(Xt Wz + Ht-1 Rz + Wbz + Rbz),  rt = f(Xt Wr + Ht-1 Rr + Wbr + Rbr)
//   ht = g(Xt Wh + (rt . Ht-1) Rh + Rbh + Wbh)        linear_before_reset = 0
//   ht = g(Xt Wh + rt . (Ht-1 Rh + Rbh) + Wbh)        linear_before_reset = 1
//   Ht = (1 - zt) . ht + zt . Ht-1
// Directions, sequence_lens, initial_h, clip and activations as in RNN.
// Opsets 7-latest (layout from 14). Opset 1-6 forms are not covered.
// Kernel: float32, float16 (computed in float32).
// Tested in test/unit/recurrent_test.cpp and node/test_gru_*.
#pragma once

#include "onyx/ops/detail/recurrent.hpp"

namespace onyx::ops {

namespace detail {
struct gru_attributes : recurrent_attributes {
  std::vector<std::string> activations{"Sigmoid", "Tanh"};
  std::int64_t linear_before_reset = 0;
  static constexpr auto fields =
      recurrent_fields<gru_attributes>(field{"linear_before_reset", &gru_attributes::linear_before_reset});
};
}  // namespace detail

struct GRU : detail::recurrent_op<"GRU", 3, arity{3, 6}, arity{0, 2}, detail::gru_attributes> {};

}  // namespace onyx::ops
