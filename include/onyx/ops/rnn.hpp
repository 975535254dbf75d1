// ops::RNN: the simple recurrent layer, Ht = f(Xt W^T + Ht-1 R^T + Wb + Rb),
// forward, reverse or bidirectional, with sequence_lens (steps past a batch
// entry's length give zeros in Y; Y_h holds its last valid state), initial_h,
// clip on the pre-activation and the activation list with alpha/beta.
// Opsets 7-latest (layout from 14; 7-13 are layout 0). Opset 1-6 forms are
// not covered. Kernel: float32, float16 (computed in float32).
// Tested in test/unit/recurrent_test.cpp and node/test_rnn_*, test_simple_rnn_*.
#pragma once

#include "onyx/ops/detail/recurrent.hpp"

namespace onyx::ops {

struct RNN {
  static constexpr std::string_view domain = "", name = "RNN";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{3, 6}, outputs{0, 2};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::i32;
  struct attributes {
    std::vector<float> activation_alpha, activation_beta;
    std::vector<std::string> activations{"Tanh"};
    std::optional<float> clip;
    std::string direction = "forward";
    std::optional<std::int64_t> hidden_size;
    std::int64_t layout = 0;
    static constexpr auto fields = std::tuple{
        field{"activation_alpha", &attributes::activation_alpha},
        field{"activation_beta", &attributes::activation_beta},
        field{"activations", &attributes::activations}, field{"clip", &attributes::clip},
        field{"direction", &attributes::direction}, field{"hidden_size", &attributes::hidden_size},
        field{"layout", &attributes::layout}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return detail::infer_recurrent(c, T, 1, a.hidden_size, a.direction, a.layout, 1);
  }
};

}  // namespace onyx::ops
