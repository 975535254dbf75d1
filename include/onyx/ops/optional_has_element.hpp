// ops::OptionalHasElement: whether the optional (or, since opset 18, plain
// tensor/sequence) input holds a value; false when the input is omitted.
// Opsets 15-latest. Tested by the conformance tests test_optional_has_element_*.
#pragma once

#include "onyx/ops/sequence.hpp"

namespace onyx::ops {

struct OptionalHasElement {
  static constexpr std::string_view domain = "", name = "OptionalHasElement";
  static constexpr int since = 15, until = latest;
  static constexpr arity inputs{0, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    c.set_output(0, dtype::boolean, sym_shape(std::vector<dim>{}));
    return ok();
  }
};

}  // namespace onyx::ops
