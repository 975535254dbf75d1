// onyx/ops/sequence.hpp: what the sequence and optional ops share: the value
// types they produce and position checks.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// A sequence of tensors of dtype `t` whose element shape is `elem`.
inline value_type sequence_of(dtype t, sym_shape elem = sym_shape::unknown_rank()) {
  return value_type{value_kind::sequence, t, std::move(elem)};
}

/// Requires input `i` to be a sequence; returns its element type.
inline result<dtype> require_sequence(const infer_context& c, int i) {
  if (c.input(i).kind != value_kind::sequence)
    return status(errc::invalid_graph, "input " + std::to_string(i) + " must be a sequence");
  return c.input(i).type;
}

/// A position in [-n, n + extra) normalized to [0, n + extra).
inline result<std::int64_t> sequence_position(std::int64_t p, std::int64_t n, std::int64_t extra) {
  if (p < -n || p >= n + extra)
    return status(errc::out_of_range, "position " + std::to_string(p) + " is out of range [" + std::to_string(-n) +
                                          ", " + std::to_string(n + extra - 1) + "] for a sequence of " +
                                          std::to_string(n) + " tensors");
  return p < 0 ? p + n : p;
}

}  // namespace onyx::ops::detail
