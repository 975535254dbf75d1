// ops::SequenceErase: the sequence without the tensor at `position` (default
// the last). Opsets 11-latest. Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceErase {
  static constexpr std::string_view domain = "", name = "SequenceErase";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 2}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_ASSIGN(dtype t, detail::require_sequence(c, 0));
    (void)t;
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, dtypes::indices, "I"));
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
