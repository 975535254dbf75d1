// ops::SequenceLength: the number of tensors in a sequence, an int64 scalar.
// Opsets 11-latest. Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceLength {
  static constexpr std::string_view domain = "", name = "SequenceLength";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_ASSIGN(dtype t, detail::require_sequence(c, 0));
    (void)t;
    c.set_output(0, dtype::int64, sym_shape(std::vector<dim>{}));
    return ok();
  }
};

}  // namespace onyx::ops
