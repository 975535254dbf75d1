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

struct GRU {
  static constexpr std::string_view domain = "", name = "GRU";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{3, 6}, outputs{0, 2};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::i32;
  struct attributes {
    std::vector<float> activation_alpha, activation_beta;
    std::vector<std::string> activations{"Sigmoid", "Tanh"};
    std::optional<float> clip;
    std::string direction = "forward";
    std::optional<std::int64_t> hidden_size;
    std::int64_t layout = 0;
    std::int64_t linear_before_reset = 0;
    static constexpr auto fields = std::tuple{
        field{"activation_alpha", &attributes::activation_alpha},
        field{"activation_beta", &attributes::activation_beta},
        field{"activations", &attributes::activations}, field{"clip", &attributes::clip},
        field{"direction", &attributes::direction}, field{"hidden_size", &attributes::hidden_size},
        field{"layout", &attributes::layout},
        field{"linear_before_reset", &attributes::linear_before_reset}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return detail::infer_recurrent(c, T, 3, a.hidden_size, a.direction, a.layout, 1);
  }
};

}  // namespace onyx::ops
