// ops::SequenceInsert: the sequence with `tensor` inserted at `position`
// (default: appended; negative counts from the end). Opsets 11-latest.
// Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceInsert {
  static constexpr std::string_view domain = "", name = "SequenceInsert";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_ASSIGN(dtype t, detail::require_sequence(c, 0));
    if (t != dtype::undefined && c.input_type(1) != t)
      return c.fail("cannot insert a " + std::string(onyx::name(c.input_type(1))) + " tensor into a sequence of " +
                    std::string(onyx::name(t)));
    if (c.has_input(2)) ONYX_TRY(require_type(c, 2, dtypes::indices, "I"));
    c.set_output(0, detail::sequence_of(c.input_type(1)));
    return ok();
  }
};

}  // namespace onyx::ops
