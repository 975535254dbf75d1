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

namespace detail {
struct lstm_attributes : recurrent_attributes {
  std::vector<std::string> activations{"Sigmoid", "Tanh", "Tanh"};
  std::int64_t input_forget = 0;
  static constexpr auto fields =
      recurrent_fields<lstm_attributes>(field{"input_forget", &lstm_attributes::input_forget});
};
}  // namespace detail

struct LSTM : detail::recurrent_op<"LSTM", 4, arity{3, 8}, arity{0, 3}, detail::lstm_attributes> {};

}  // namespace onyx::ops
