// onyx/ops/control.hpp: shape rules the control-flow ops (If, Loop, Scan)
// share: reading the declared types of a subgraph's inputs and outputs.
#pragma once

#include "onyx/graph/ir.hpp"
#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// The declared type of output `i` of `g`, dims kept only where they are
/// numbers (a subgraph's symbols are not the outer graph's).
inline value_type subgraph_output_type(const graph::graph& g, std::size_t i) {
  value_type t = g.values[g.outputs[i]].type;
  if (t.shape.rank_known)
    for (auto& d : t.shape.dims)
      if (!d.known()) d = dim::unknown();
  return t;
}

/// Dims where `a` and `b` agree, unknown elsewhere; unknown rank when the
/// ranks differ or either is unknown.
inline sym_shape merge_shapes(const sym_shape& a, const sym_shape& b) {
  if (!a.rank_known || !b.rank_known || a.rank() != b.rank()) return sym_shape::unknown_rank();
  std::vector<dim> d;
  for (std::size_t i = 0; i < a.rank(); ++i) d.push_back(a[i] == b[i] ? a[i] : dim::unknown());
  return sym_shape(std::move(d));
}

/// Fails unless `g` exists and has `inputs` inputs and at least `outputs` outputs.
inline status check_body(const infer_context& c, const std::shared_ptr<const graph::graph>& g, std::string_view what,
                         std::size_t inputs, std::size_t outputs, bool exact_outputs) {
  if (!g) return c.fail("missing graph attribute '" + std::string(what) + "'");
  if (g->inputs.size() != inputs)
    return c.fail(std::string(what) + " takes " + std::to_string(g->inputs.size()) + " inputs, expected " +
                  std::to_string(inputs));
  if (exact_outputs ? g->outputs.size() != outputs : g->outputs.size() < outputs)
    return c.fail(std::string(what) + " has " + std::to_string(g->outputs.size()) + " outputs, expected " +
                  (exact_outputs ? "" : "at least ") + std::to_string(outputs));
  return ok();
}

}  // namespace onyx::ops::detail
