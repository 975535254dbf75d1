// ops::Loop: runs `body` while the trip count M (optional int64 scalar) is
// not reached and the condition (optional bool, updated by the body's first
// output) holds. Body inputs: iteration number, condition, N loop-carried
// values; outputs: condition, N carried values, K scan outputs. The Loop's
// outputs are the final carried values and the K scan outputs, each the
// per-iteration values stacked along a new axis 0.
// Opsets 1-latest (11 clarified the condition/trip-count forms, 13/16 added
// sequence and optional carried values). Any value kind carried; scan outputs
// are tensors. A body that may make no iteration (M or cond not known to
// allow one) and whose inference fails gives unknown shapes and fails only
// if it runs. Tested by the conformance node tests test_loop* and
// test/unit/untaken_branch_test.cpp.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct Loop {
  static constexpr std::string_view domain = "", name = "Loop";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, variadic, positions(0, 1)}, outputs{1, variadic};
  static constexpr dtype_set I = dtypes::i64, B = dtypes::boolean;
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::shared_ptr<const graph::graph> body;
    static constexpr auto fields = std::tuple{field{"body", &attributes::body, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (c.has_input(0)) ONYX_TRY(require_type(c, 0, I, "I"));
    if (c.has_input(1)) ONYX_TRY(require_type(c, 1, B, "B"));
    const int n = c.input_count() - 2;
    const int k = c.output_count() - n;
    if (k < 0) return c.fail("Loop has " + std::to_string(n) + " loop-carried inputs but only " +
                             std::to_string(c.output_count()) + " outputs");
    ONYX_TRY(detail::check_body(c, a.body, "body", 2 + n, 1 + n + k, true));
    // Body inputs: the iteration number, the condition, the carried values.
    std::vector<value_type> ins{value_type{value_kind::tensor, dtype::int64, sym_shape()},
                                value_type{value_kind::tensor, dtype::boolean, sym_shape()}};
    for (int j = 0; j < n; ++j) ins.push_back(c.input(2 + j));
    // Whether the body runs at all, where M and cond are known now.
    const auto m = c.input_ints(0);
    const tensor* cond = c.has_input(1) ? c.input_value(1) : nullptr;
    const bool known_cond = !c.has_input(1) || (cond && cond->size() == 1);
    const bool no_iteration = (m && m->size() == 1 && (*m)[0] <= 0) ||
                              (cond && cond->size() == 1 && !cond->data<bool>()[0]);
    const bool iterates = !no_iteration && (!c.has_input(0) || (m && m->size() == 1)) && known_cond;
    // A body that may make no iteration and whose inference fails gives
    // unknown shapes; it raises its error if it runs.
    auto inferred = detail::infer_loop_body(c, *a.body, ins, 2, 1, static_cast<std::size_t>(n));
    if (!inferred.ok() && iterates) return std::move(inferred).error();
    std::vector<value_type> outs = inferred.ok() ? std::move(inferred).value() : detail::unknown_shapes(c, *a.body);
    if (no_iteration) {  // the final values are the initial ones
      for (int j = 0; j < n; ++j) outs[1 + j] = c.input(2 + j);
    }
    for (int j = 0; j < n; ++j) {
      // The final value is the body's last output (or, after no iteration, the
      // initial one): the body's type, with the relaxed carried shape.
      value_type t = std::move(outs[1 + j]);
      if (t.type == dtype::undefined) {
        sym_shape shape = std::move(t.shape);
        t = c.input(2 + j);
        t.shape = std::move(shape);
      }
      c.set_output(j, std::move(t));
    }
    for (int s = 0; s < k; ++s) {
      value_type t = std::move(outs[1 + n + s]);
      if (t.kind != value_kind::tensor) return c.fail("scan output " + std::to_string(s) + " must be a tensor");
      if (t.type == dtype::undefined && !inferred.ok()) return std::move(inferred).error();  // nothing declared
      if (t.shape.rank_known) t.shape.dims.insert(t.shape.dims.begin(), no_iteration ? dim(0) : dim::unknown());
      c.set_output(n + s, std::move(t));
    }
    return ok();
  }
};

}  // namespace onyx::ops
