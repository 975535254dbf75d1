// onyx/ops/recurrent_ops.hpp: the recurrent op group (RNN, GRU, LSTM).
#pragma once

#include "onyx/ops/gru.hpp"
#include "onyx/ops/lstm.hpp"
#include "onyx/ops/rnn.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

using recurrent_ops = op_list<ops::RNN, ops::GRU, ops::LSTM>;

}  // namespace onyx
