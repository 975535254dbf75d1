// ops::OptionalGetElement: the value inside an optional (or, since opset 18,
// a plain tensor/sequence passed through); an empty optional fails.
// Opsets 15-latest. Tested by the conformance tests test_optional_get_element_*.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct OptionalGetElement {
  static constexpr std::string_view domain = "", name = "OptionalGetElement";
  static constexpr int since = 15, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    value_type t = c.input(0);
    if (t.kind == value_kind::none) return c.fail("the optional input's element type is unknown");
    t.optional = false;
    c.set_output(0, std::move(t));
    return ok();
  }
};

}  // namespace onyx::ops
