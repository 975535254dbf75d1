// onyx/ops/control.hpp: shape rules the control-flow ops (If, Loop, Scan,
// SequenceMap) share: the types of a subgraph's outputs, inferred from its
// body or declared.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops::detail {

/// Dims where `a` and `b` agree, unknown elsewhere; unknown rank when the
/// ranks differ or either is unknown.
inline sym_shape merge_shapes(const sym_shape& a, const sym_shape& b) {
  if (!a.rank_known || !b.rank_known || a.rank() != b.rank()) return sym_shape::unknown_rank();
  std::vector<dim> d;
  for (std::size_t i = 0; i < a.rank(); ++i) d.push_back(a[i] == b[i] ? a[i] : dim::unknown());
  return sym_shape(std::move(d));
}

/// The types of `body`'s outputs for inputs of types `ins`: inferred through
/// its nodes where the context can, and where that leaves a dtype or shape
/// unknown, as the body declares them.
inline result<std::vector<value_type>> infer_body(infer_context& c, const graph::graph& body,
                                                  std::span<const value_type> ins) {
  ONYX_ASSIGN(auto inferred, c.infer_subgraph(body, ins));
  body_interface declared_io = c.interface_of(body);
  std::vector<value_type> out;
  for (std::size_t i = 0; i < declared_io.outputs.size(); ++i) {
    value_type declared = std::move(declared_io.outputs[i]);
    if (!inferred) {
      out.push_back(std::move(declared));
      continue;
    }
    value_type t = std::move((*inferred)[i]);
    if (t.type == dtype::undefined) t.type = declared.type;
    if (!t.shape.rank_known) t.shape = declared.shape;
    out.push_back(std::move(t));
  }
  return out;
}

/// `body`'s declared output types with every shape unknown: what inference
/// takes a body to give when its own inference failed but it may never run
/// (an If branch whose condition is not known yet, a Loop or Scan body that
/// may make no iteration). Only running it can then raise the error.
inline std::vector<value_type> unknown_shapes(const infer_context& c, const graph::graph& body) {
  std::vector<value_type> outs = c.interface_of(body).outputs;
  for (auto& t : outs) t.shape = sym_shape::unknown_rank();
  return outs;
}

/// Infers a loop body whose inputs [first, first + n) are carried: fed from
/// its outputs [out_first, out_first + n) on the next iteration. A carried
/// shape the body changes is relaxed (the dims that differ become unknown,
/// the rank when ranks differ) and the body inferred again, until the shapes
/// hold for every iteration; the carried outputs then have those shapes.
inline result<std::vector<value_type>> infer_loop_body(infer_context& c, const graph::graph& body,
                                                       std::vector<value_type> ins, std::size_t first,
                                                       std::size_t out_first, std::size_t n) {
  for (;;) {
    ONYX_ASSIGN(auto outs, infer_body(c, body, ins));
    bool relaxed = false;
    for (std::size_t j = 0; j < n; ++j) {
      sym_shape& s = ins[first + j].shape;
      const sym_shape& o = outs[out_first + j].shape;
      if (!s.rank_known) continue;
      if (!o.rank_known || o.rank() != s.rank()) {
        s = sym_shape::unknown_rank();
        relaxed = true;
        continue;
      }
      for (std::size_t d = 0; d < s.rank(); ++d)
        if (!s[d].is_unknown() && !(s[d] == o[d])) s[d] = dim::unknown(), relaxed = true;
    }
    if (relaxed) continue;  // each pass loses information, so this ends
    for (std::size_t j = 0; j < n; ++j) outs[out_first + j].shape = ins[first + j].shape;
    return outs;
  }
}

/// Fails unless `g` exists and has `inputs` inputs and at least `outputs` outputs.
inline status check_body(const infer_context& c, const std::shared_ptr<const graph::graph>& g, std::string_view what,
                         std::size_t inputs, std::size_t outputs, bool exact_outputs) {
  if (!g) return c.fail("missing graph attribute '" + std::string(what) + "'");
  const body_interface io = c.interface_of(*g);
  if (io.inputs != inputs)
    return c.fail(std::string(what) + " takes " + std::to_string(io.inputs) + " inputs, expected " +
                  std::to_string(inputs));
  if (exact_outputs ? io.outputs.size() != outputs : io.outputs.size() < outputs)
    return c.fail(std::string(what) + " has " + std::to_string(io.outputs.size()) + " outputs, expected " +
                  (exact_outputs ? "" : "at least ") + std::to_string(outputs));
  return ok();
}

}  // namespace onyx::ops::detail
