// onyx/graph/infer.hpp: types, shapes and small values for every value.
//
// Runs each node's `infer` in order. The same pass serves two purposes:
//  - symbolic, at session creation (dims may be named symbols), which fixes
//    every value's dtype so kernels can be bound;
//  - concrete, once per input-shape signature, which gives every planned
//    value its extents.
// Values are propagated too: when every input of a node is known (a constant,
// or itself propagated) and its outputs are small, the node is evaluated by
// its kernel through `evaluate`, so Shape -> Gather -> Concat -> Reshape
// chains resolve to constants without per-op propagation code. Shape's own
// infer turns a concrete shape into a value.
#pragma once

#include <functional>
#include <map>

#include "onyx/core/message.hpp"
#include "onyx/graph/ir.hpp"

namespace onyx::graph {

/// What inference knows about each value of one graph.
struct inferred {
  std::vector<value_type> types;
  std::vector<std::optional<tensor>> known;  // propagated or constant values
  /// Per subgraph of this graph's nodes: its last inference, under the input
  /// types its node gave it (compile() binds the body's kernels from it).
  std::map<const graph*, std::shared_ptr<const inferred>> bodies;
};

/// The type signature `n`'s op keys its kernels by, from the inferred types
/// (dtype::undefined for an omitted slot).
inline ops::signature signature_of(const node& n, const inferred& st) {
  ops::signature s;
  s.n = static_cast<int>(n.op->signature.size());
  for (int i = 0; i < s.n; ++i) {
    const auto slot = n.op->signature[i];
    const auto& ids = slot.output ? n.outputs : n.inputs;
    const int id = slot.index < static_cast<int>(ids.size()) ? ids[slot.index] : -1;
    s.t[i] = id >= 0 ? st.types[id].type : dtype::undefined;
  }
  return s;
}

/// Runs `n` on known inputs (the runtime's kernels); used to propagate values.
using evaluate_fn = std::function<result<std::vector<tensor>>(const node& n, std::span<const tensor* const> inputs,
                                                                const inferred& state)>;

/// Largest output (elements) that inference evaluates to propagate a value.
inline constexpr std::int64_t propagate_limit = 1024;

namespace infer_detail {

class context final : public ops::infer_context {
 public:
  context(const graph* g, const node& n, inferred& st, const evaluate_fn& evaluate)
      : g_(g), n_(n), st_(st), evaluate_(evaluate) {
    outs_.resize(n.outputs.size());
    vals_.resize(n.outputs.size());
  }
  int input_count() const override { return static_cast<int>(n_.inputs.size()); }
  int output_count() const override { return static_cast<int>(n_.outputs.size()); }
  bool has_input(int i) const override { return i < input_count() && n_.inputs[i] >= 0; }
  const value_type& input(int i) const override {
    static const value_type none{value_kind::none};
    return has_input(i) ? st_.types[n_.inputs[i]] : none;
  }
  const tensor* input_value(int i) const override {
    if (!has_input(i)) return nullptr;
    auto& k = st_.known[n_.inputs[i]];
    return k ? &*k : nullptr;
  }
  void set_output(int i, value_type t) override {
    if (i < output_count()) outs_[i] = std::move(t);
  }
  void set_output_value(int i, tensor v) override {
    if (i < output_count()) vals_[i] = std::move(v);
  }
  const std::string& node_name() const override { return n_.name; }
  ops::body_interface interface_of(const graph& body) const override { return onyx::graph::interface_of(body); }
  result<std::optional<std::vector<value_type>>> infer_subgraph(const graph& body,
                                                                     std::span<const value_type> ins) override;

  std::vector<value_type> outs_;
  std::vector<std::optional<tensor>> vals_;

 private:
  const graph* g_;  // the graph `n_` is in; null: captures keep their declared types
  const node& n_;
  inferred& st_;
  const evaluate_fn& evaluate_;
};

}  // namespace infer_detail

/// Starts a state from the graph's own declarations and constants.
inline inferred initial_state(const graph& g) {
  inferred st;
  st.types.reserve(g.values.size());
  for (auto& v : g.values) {
    // A constant's type is its tensor's (folding leaves no node to infer it).
    st.types.push_back(v.constant ? value_type{value_kind::tensor, v.constant->type(), sym_shape(v.constant->shape())}
                                  : v.type);
    st.known.push_back(v.constant);
  }
  return st;
}

/// Infers node `n` of graph `g` into `st`: types and shapes, then (when
/// possible) values.
inline status infer_node(const node& n, inferred& st, const evaluate_fn& evaluate, const graph* g = nullptr) {
  infer_detail::context c(g, n, st, evaluate);
  ONYX_TRY(n.op->infer(n.attrs.get(), c));
  for (std::size_t i = 0; i < n.outputs.size(); ++i) {
    int id = n.outputs[i];
    if (id < 0) continue;
    auto& t = c.outs_[i];
    if (t.type == dtype::undefined && t.kind == value_kind::tensor)
      return failure(errc::internal, "inference did not set output ", i);
    // What inference found replaces the model's declaration, even where it
    // knows less: a run is planned only on inferred shapes (a declaration
    // nothing checked, taken as the truth, once let a Squeeze read past its
    // input: test/fuzz/regressions/model/squeeze_declared_output_shape.onnx).
    // An output of unknown shape is inferred again when the node runs.
    st.types[id] = std::move(t);
    if (c.vals_[i]) st.known[id] = std::move(c.vals_[i]);
  }
  if (!evaluate) return ok();
  // Propagate: every present input known, every output small and concrete.
  std::vector<const tensor*> ins;
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    const tensor* t = c.input_value(static_cast<int>(i));
    if (n.inputs[i] >= 0 && !t) return ok();
    ins.push_back(t);
  }
  if (!n.subgraphs.empty() || !n.op->deterministic) return ok();  // random values are drawn at run time
  for (int id : n.outputs) {
    if (id < 0) continue;
    if (st.known[id]) continue;
    auto e = st.types[id].shape.concrete_extents();
    if (!e || element_count(*e) > propagate_limit || st.types[id].kind != value_kind::tensor) return ok();
  }
  bool all_known = true;
  for (int id : n.outputs)
    if (id >= 0 && !st.known[id]) all_known = false;
  if (all_known) return ok();
  auto outs = evaluate(n, ins, st);
  if (!outs.ok()) return ok();  // no kernel for it: the value stays unknown
  for (std::size_t i = 0; i < n.outputs.size() && i < outs->size(); ++i)
    if (n.outputs[i] >= 0 && !(*outs)[i].empty()) st.known[n.outputs[i]] = std::move((*outs)[i]);
  return ok();
}

/// Infers every node of `g` in order; errors name the node and its op.
inline status infer_graph(const graph& g, inferred& st, const evaluate_fn& evaluate) {
  for (const auto& n : g.nodes) {
    status s = infer_node(n, st, evaluate, &g);
    if (!s.ok()) return std::move(s).with_context(n.label());
  }
  return ok();
}

/// A body's inference starts from its declarations, with the types its node
/// gives its inputs (their values unknown: they change from one run to the
/// next) and the enclosing graph's types and values for what it captures.
inline result<std::optional<std::vector<value_type>>> infer_detail::context::infer_subgraph(
    const graph& body, std::span<const value_type> ins) {
  if (!subgraphs_enabled)
    return failure(errc::unsupported, "subgraph '", body.name, "': this program runs no subgraphs (ONYX_NO_SUBGRAPHS)");
  if (ins.size() != body.inputs.size())
    return failure(errc::invalid_graph, "subgraph '", body.name, "' takes ", body.inputs.size(),
                   " inputs, the node gives it ", ins.size());
  auto st = std::make_shared<inferred>(initial_state(body));
  for (std::size_t i = 0; i < ins.size(); ++i) {
    int id = body.inputs[i];
    value_type t = ins[i];
    if (t.type == dtype::undefined) t.type = st->types[id].type;
    if (!t.shape.rank_known) t.shape = st->types[id].shape;
    st->types[id] = std::move(t);
    st->known[id].reset();
  }
  for (int id : body.captures)
    if (int src = g_ ? g_->find(body.values[id].name) : -1; src >= 0) {
      st->types[id] = st_.types[src];
      st->known[id] = st_.known[src];
    }
  status s = infer_graph(body, *st, evaluate_);
  if (!s.ok()) return std::move(s).with_context("subgraph '" + body.name + "'");
  std::vector<value_type> outs;
  for (int id : body.outputs) outs.push_back(st->types[id]);
  st_.bodies[&body] = std::move(st);
  return std::optional(std::move(outs));
}

}  // namespace onyx::graph
