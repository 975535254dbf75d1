// ops::If: runs then_branch or else_branch by the boolean scalar `cond` and
// returns that branch's outputs. Output types come from the branches
// (inferred, else declared); dims the two branches disagree on are unknown
// (the kernel allocates those outputs). When `cond` is known at inference
// (value propagation) only the branch that runs is inferred; otherwise a
// branch whose inference fails gives unknown shapes and fails only if run. Opsets 1-latest (11 allowed differing shapes,
// 13/16 added sequence and optional types). Any value kind.
// Tested by the conformance node tests test_if* and test/unit/untaken_branch_test.cpp.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct If {
  static constexpr std::string_view domain = "", name = "If";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, variadic};
  static constexpr dtype_set B = dtypes::boolean;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> then_branch, else_branch;
    static constexpr auto fields = std::tuple{field{"then_branch", &attributes::then_branch, true},
                                              field{"else_branch", &attributes::else_branch, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, B, "B"));
    const auto n = static_cast<std::size_t>(c.output_count());
    ONYX_TRY(detail::check_body(c, a.then_branch, "then_branch", 0, n, true));
    ONYX_TRY(detail::check_body(c, a.else_branch, "else_branch", 0, n, true));
    // A condition known now (a constant, or propagated from shapes, as in
    // exported `if x.shape[2] == 1: x = x.squeeze(2)`): only the branch that
    // runs is inferred; the other may not even hold for these shapes.
    if (const tensor* cond = c.input_value(0); cond && cond->size() == 1) {
      ONYX_ASSIGN(auto types, detail::infer_body(c, cond->data<bool>()[0] ? *a.then_branch : *a.else_branch, {}));
      for (std::size_t i = 0; i < n; ++i) c.set_output(static_cast<int>(i), std::move(types[i]));
      return ok();
    }
    // Not known: a branch whose inference fails gives unknown shapes (it
    // raises its error if it runs); both failing is an error now.
    auto then_inferred = detail::infer_body(c, *a.then_branch, {});
    auto else_inferred = detail::infer_body(c, *a.else_branch, {});
    if (!then_inferred.ok() && !else_inferred.ok()) return std::move(then_inferred).error();
    std::vector<value_type> then_types = then_inferred.ok() ? std::move(then_inferred).value()
                                                            : detail::unknown_shapes(c, *a.then_branch);
    std::vector<value_type> else_types = else_inferred.ok() ? std::move(else_inferred).value()
                                                            : detail::unknown_shapes(c, *a.else_branch);
    for (std::size_t i = 0; i < n; ++i) {
      value_type t = std::move(then_types[i]), e = std::move(else_types[i]);
      const bool optional = t.optional || e.optional;
      if (t.kind == value_kind::none) std::swap(t, e);  // an empty optional of unknown type
      if (e.kind != value_kind::none) {
        if (t.type == dtype::undefined) t.type = e.type;
        if (e.type != dtype::undefined && e.type != t.type)
          return c.fail("output " + std::to_string(i) + " is " + std::string(onyx::name(t.type)) +
                        " in then_branch but " + std::string(onyx::name(e.type)) + " in else_branch");
        if (t.kind != e.kind)
          return c.fail("output " + std::to_string(i) + " has different kinds in the two branches");
        t.shape = detail::merge_shapes(t.shape, e.shape);
      }
      t.optional = optional;
      c.set_output(static_cast<int>(i), std::move(t));
    }
    return ok();
  }
};

}  // namespace onyx::ops
