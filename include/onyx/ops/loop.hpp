// ops::Loop: runs `body` while the trip count M (optional int64 scalar) is
// not reached and the condition (optional bool, updated by the body's first
// output) holds. Body inputs: iteration number, condition, N loop-carried
// values; outputs: condition, N carried values, K scan outputs. The Loop's
// outputs are the final carried values and the K scan outputs, each the
// per-iteration values stacked along a new axis 0.
// Opsets 1-latest (11 clarified the condition/trip-count forms, 13/16 added
// sequence and optional carried values). Any value kind carried; scan outputs
// are tensors. Tested by the conformance node tests test_loop*.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct Loop {
  static constexpr std::string_view domain = "", name = "Loop";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, variadic}, outputs{1, variadic};
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
    ONYX_ASSIGN(auto outs, detail::infer_loop_body(c, *a.body, ins, 2, 1, static_cast<std::size_t>(n)));
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
      if (t.shape.rank_known) t.shape.dims.insert(t.shape.dims.begin(), dim::unknown());
      c.set_output(n + s, std::move(t));
    }
    return ok();
  }
};

}  // namespace onyx::ops
