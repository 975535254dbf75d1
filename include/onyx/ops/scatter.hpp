// ops::Scatter: the deprecated name of ScatterElements (reduction none).
// Opsets 9-10 (removed at 11); expands into ScatterElements.
// Tested in test/unit/scatter_elements_test.cpp.
#pragma once

#include "onyx/ops/scatter_elements.hpp"

namespace onyx::ops {

struct Scatter {
  static constexpr std::string_view domain = "", name = "Scatter";
  static constexpr int since = 9, until = 10;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  struct attributes {
    std::int64_t axis = 0;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) {
    return ScatterElements::infer(ScatterElements::attributes{a.axis, "none"}, c);
  }
  static status expand(const attributes& a, expand_context& c) {
    ONYX_ASSIGN(auto outs, c.add("ScatterElements", {c.input(0), c.input(1), c.input(2)},
                                 {attribute{"axis", a.axis}}));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
