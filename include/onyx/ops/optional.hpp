// ops::Optional: an optional holding `input`, or an empty one without it.
// Opsets 15-latest. The `type` attribute (a TypeProto) is not read, so an
// empty Optional's element type is unknown to inference.
// Tested by the conformance tests test_optional_* and test_if_opt.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct Optional {
  static constexpr std::string_view domain = "", name = "Optional";
  static constexpr int since = 15, until = latest;
  static constexpr arity inputs{0, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    value_type t = c.has_input(0) ? c.input(0) : value_type{value_kind::none};
    t.optional = true;
    c.set_output(0, std::move(t));
    return ok();
  }
};

}  // namespace onyx::ops
