// ops::LSTM: long short-term memory, gates i, o, f, c (weights stacked in
// that order), peepholes P = [Pi, Po, Pf]:
//   it = f(Xt Wi + Ht-1 Ri + Pi . Ct-1 + Wbi + Rbi)
//   ft = f(Xt Wf + Ht-1 Rf + Pf . Ct-1 + Wbf + Rbf)   (1 - it with input_forget)
//   ct = g(Xt Wc + Ht-1 Rc + Wbc + Rbc),  Ct = ft . Ct-1 + it . ct
//   ot = f(Xt Wo + Ht-1 Ro + Po . Ct + Wbo + Rbo),  Ht = ot . h(Ct)
// Directions, sequence_lens, initial_h/initial_c, clip and activations as in
// RNN. Opsets 7-latest (layout from 14). Opset 1-6 forms are not covered.
// Kernel: float32, float16 (computed in float32).
// Tested in test/unit/recurrent_test.cpp and node/test_lstm_*.
#pragma once

#include "onyx/ops/detail/recurrent.hpp"

namespace onyx::ops {

struct LSTM {
  static constexpr std::string_view domain = "", name = "LSTM";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{3, 8}, outputs{0, 3};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::i32;
  struct attributes {
    std::vector<float> activation_alpha, activation_beta;
    std::vector<std::string> activations{"Sigmoid", "Tanh", "Tanh"};
    std::optional<float> clip;
    std::string direction = "forward";
    std::optional<std::int64_t> hidden_size;
    std::int64_t input_forget = 0;
    std::int64_t layout = 0;
    static constexpr auto fields = std::tuple{
        field{"activation_alpha", &attributes::activation_alpha},
        field{"activation_beta", &attributes::activation_beta},
        field{"activations", &attributes::activations}, field{"clip", &attributes::clip},
        field{"direction", &attributes::direction}, field{"hidden_size", &attributes::hidden_size},
        field{"input_forget", &attributes::input_forget}, field{"layout", &attributes::layout}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return detail::infer_recurrent(c, T, 4, a.hidden_size, a.direction, a.layout, 2);
  }
};

}  // namespace onyx::ops
