// ops::Optional: an optional holding `input`, or an empty one without it.
// Opsets 15-latest. An empty Optional's element type comes from the `type`
// attribute (a TypeProto; required by the spec when there is no input).
// Tested by the conformance tests test_optional_* and test_if_opt.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct Optional {
  static constexpr std::string_view domain = "", name = "Optional";
  static constexpr int since = 15, until = latest;
  static constexpr arity inputs{0, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::optional<value_type> type;
    static constexpr auto fields = std::tuple{field{"type", &attributes::type}};
  };
  static status infer(const attributes& a, infer_context& c) {
    value_type t = c.has_input(0) ? c.input(0) : a.type.value_or(value_type{value_kind::none});
    if (c.has_input(0) && a.type && a.type->type != dtype::undefined &&
        (a.type->type != t.type || a.type->kind != t.kind))
      return c.fail("the input does not have the type attribute 'type' declares");
    t.optional = true;
    c.set_output(0, std::move(t));
    return ok();
  }
};

}  // namespace onyx::ops
