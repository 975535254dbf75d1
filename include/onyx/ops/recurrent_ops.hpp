// onyx/ops/recurrent_ops.hpp: the recurrent op group: RNN, GRU, LSTM.
// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit
// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.
#pragma once

#include "onyx/ops/gru.hpp"
#include "onyx/ops/lstm.hpp"
#include "onyx/ops/rnn.hpp"

#include "onyx/ops/op_list.hpp"

namespace onyx {

// clang-format off
using recurrent_ops = op_list<
    ops::RNN,
    ops::GRU,
    ops::LSTM>;
// clang-format on

}  // namespace onyx
