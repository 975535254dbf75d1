// ops::SequenceAt: the tensor at `position` (negative counts from the end;
// out of range fails with errc::out_of_range). Opsets 11-latest.
// Tested by the conformance tests that use sequences.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct SequenceAt {
  static constexpr std::string_view domain = "", name = "SequenceAt";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_ASSIGN(dtype t, detail::require_sequence(c, 0));
    ONYX_TRY(require_type(c, 1, dtypes::indices, "I"));
    c.set_output(0, t, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
