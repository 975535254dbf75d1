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

namespace detail {
struct rnn_attributes : recurrent_attributes {
  std::vector<std::string> activations{"Tanh"};
  static constexpr auto fields = recurrent_fields<rnn_attributes>();
};
}  // namespace detail

struct RNN : detail::recurrent_op<"RNN", 1, arity{3, 6}, arity{0, 2}, detail::rnn_attributes> {};

}  // namespace onyx::ops
