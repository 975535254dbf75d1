// onyx/graph/passes/rewrite.hpp: the vocabulary the optimization passes share.
//
//   match<ops::Conv>(node)      the node's typed attributes when it is that op
//                               (domain, name and opset range), else null
//   find_op<ops::Gemm>(table)   the table's op_info for an op struct, or null
//   readers                     who reads each value (nodes, captures, outputs)
//   replace_if_kernel           swaps in a new node when a backend runs it
//   erase_marked, add_constant  node removal and new constant values
//   constant accessors          a constant as per-channel values or a scalar
//
// A pass never matches an op by its name string nor re-reads raw attributes:
// an op struct names the op, and its typed `attributes` are what the loader
// parsed. Matching an op struct matches its latest semantics only (an older
// `_vN` struct is a different op; normalize has up-converted those it can).
// Tested in test/unit/rewrite_test.cpp.
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "onyx/graph/infer.hpp"

namespace onyx::graph::passes {

/// Whether `info` is the op struct `Op` (same domain, name and opset range).
template <class Op>
bool is_op(const op_info& info) {
  return info.domain == Op::domain && info.name == Op::name && info.since == Op::since && info.until == Op::until;
}

/// `Op`'s typed attributes when `n` is that op, else null. `Op` must be the
/// struct of the op's latest semantics.
template <class Op>
const typename Op::attributes* match(const node& n) {
  static_assert(Op::until == ops::latest, "passes match an op at its latest semantics, never a _vN struct");
  if (!n.op || !n.attrs || !is_op<Op>(*n.op)) return nullptr;
  return static_cast<const typename Op::attributes*>(n.attrs.get());
}

/// The op_info of `Op` in `ops`, or null when the table does not list it.
template <class Op>
const op_info* find_op(const op_table& ops) {
  for (const auto& op : ops.ops)
    if (is_op<Op>(op)) return &op;
  return nullptr;
}

/// Readers of each value: nodes, subgraph captures and graph outputs; and,
/// when a node is the single reader, its index.
struct readers {
  std::vector<int> count, only;

  explicit readers(const graph& g) : count(g.values.size(), 0), only(g.values.size(), -1) {
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
      for (int id : g.nodes[k].inputs)
        if (id >= 0) ++count[id], only[id] = static_cast<int>(k);
      for (const auto& sg : g.nodes[k].subgraphs)
        for (int c : sg->captures)
          if (int outer = g.find(sg->values[c].name); outer >= 0) ++count[outer], only[outer] = -1;
    }
    for (int id : g.outputs) ++count[id], only[id] = -1;
  }
  /// The node that alone reads `id`, or -1.
  int sole(int id) const { return count[id] == 1 ? only[id] : -1; }
};

/// The index, in the registry's backend order, of the first backend with a
/// kernel for `n`'s type signature; -1 when none has one.
inline int preferred_backend(const node& n, const inferred& st) {
  const auto key = signature_of(n, st).key();
  for (std::size_t i = 0; i < n.op->kernels.size(); ++i)
    if (n.op->kernels[i].find(key)) return static_cast<int>(i);
  return -1;
}

/// Puts `replacement` (its op, typed attributes, inputs and outputs set) in
/// place of `at` when some backend has a kernel for its type signature;
/// returns false, leaving `at` as it was, when none has.
inline bool replace_if_kernel(node& at, node&& replacement, const inferred& st) {
  const int to = preferred_backend(replacement, st);
  if (to < 0) return false;
  // A fusion must not move work to a less preferred backend (a GPU node's
  // fused form that only the CPU has would cost two copies, not save a pass).
  if (const int from = at.op ? preferred_backend(at, st) : -1; from >= 0 && to > from) return false;
  at = std::move(replacement);
  return true;
}

/// Drops the nodes marked in `removed` (one flag per node), keeping order.
inline void erase_marked(graph& g, const std::vector<char>& removed) {
  std::vector<node> kept;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (!removed[k]) kept.push_back(std::move(g.nodes[k]));
  g.nodes = std::move(kept);
}

/// A new constant value holding `t`.
inline int add_constant(graph& g, inferred& st, std::string name, tensor t) {
  value_type type{value_kind::tensor, t.type(), sym_shape(t.shape())};
  int id = g.add_value(std::move(name), type);
  g.values[id].constant = t;
  st.types.push_back(type);
  st.known.push_back(std::move(t));
  return id;
}

/// The constant tensor of value `id`, or null (an omitted input, or not constant).
inline const tensor* constant_of(const graph& g, int id) {
  return id >= 0 && g.values[id].constant ? &*g.values[id].constant : nullptr;
}

/// Element `i` of a float32 or float64 tensor, as double.
inline double element(const tensor& t, std::int64_t i) {
  return t.type() == dtype::float32 ? t.data<float>()[i] : t.data<double>()[i];
}

/// The constant `id` as M per-channel values for an output of rank `rank`
/// (channel axis 1), or empty when it is not constant, not of type `t`, or
/// broadcasts along another axis. `t` is float32 or float64.
inline std::vector<double> per_channel(const graph& g, int id, dtype t, std::size_t rank, std::int64_t M) {
  const tensor* c = constant_of(g, id);
  if (!c || c->type() != t || c->rank() > rank || c->size() < 1) return {};
  for (std::size_t j = 0; j < c->rank(); ++j) {
    const std::size_t axis = rank - c->rank() + j;
    if (c->dim(j) != 1 && !(axis == 1 && c->dim(j) == M)) return {};
  }
  std::vector<double> v(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) v[m] = element(*c, c->size() == 1 ? 0 : m);
  return v;
}

/// A rank-1 constant of M values of type `t` (float32 or float64), or empty.
inline std::vector<double> vector_of(const graph& g, int id, dtype t, std::int64_t M) {
  const tensor* c = constant_of(g, id);
  if (!c || c->type() != t || c->rank() != 1 || c->dim(0) != M) return {};
  std::vector<double> v(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) v[m] = element(*c, m);
  return v;
}

/// A one-element float32 or float16 constant as float, or nullopt.
inline std::optional<float> float_scalar_of(const graph& g, int id) {
  const tensor* c = constant_of(g, id);
  if (!c || c->size() != 1) return std::nullopt;
  if (c->type() == dtype::float32) return c->data<float>()[0];
  if (c->type() == dtype::float16) return to_float(c->data<float16_t>()[0]);
  return std::nullopt;
}

/// Whether value `id` is a one-element float32/float16 constant within
/// `rel` (relative) of `want`.
inline bool is_scalar(const graph& g, int id, double want, double rel = 1e-6) {
  auto v = float_scalar_of(g, id);
  return v && std::abs(static_cast<double>(*v) - want) <= rel * std::abs(want);
}

/// The input of two-input node `n` that is not `id`, or -1 when `n` does not
/// read `id` as one of exactly two inputs.
inline int other_input(const node& n, int id) {
  if (n.inputs.size() != 2) return -1;
  return n.inputs[0] == id ? n.inputs[1] : n.inputs[1] == id ? n.inputs[0] : -1;
}

/// The node that writes each value, or -1 (graph inputs, constants).
inline std::vector<int> producers(const graph& g) {
  std::vector<int> p(g.values.size(), -1);
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    for (int id : g.nodes[k].outputs)
      if (id >= 0) p[id] = static_cast<int>(k);
  return p;
}

/// Walks single-reader chains of nodes (what a fusion absorbs).
struct chain_walk {
  const graph& g;
  const readers& r;
  const std::vector<int>& producer;  // producers(g)

  /// The node writing `id` when node `reader` alone reads `id`, else -1.
  int feeding(int id, int reader) const { return id >= 0 && r.sole(id) == reader ? producer[id] : -1; }
  /// The sole reader of node k's only output, or -1.
  int next(int k) const {
    if (k < 0) return -1;
    const node& n = g.nodes[k];
    return n.outputs.size() == 1 && n.outputs[0] >= 0 ? r.sole(n.outputs[0]) : -1;
  }
};

/// Whether no node of `chain` is marked in `removed` (taken by an earlier fusion).
inline bool unclaimed(const std::vector<char>& removed, const std::vector<int>& chain) {
  for (int c : chain)
    if (removed[c]) return false;
  return true;
}

/// Puts `n` in place of node `last` of `chain` when a backend runs it
/// (replace_if_kernel) and marks the chain's other nodes in `removed`;
/// false, changing nothing, when none does.
inline bool replace_chain(graph& g, const inferred& st, std::vector<char>& removed, const std::vector<int>& chain,
                          int last, node&& n) {
  // No node of the chain may move to a less preferred backend (see replace_if_kernel).
  const int to = preferred_backend(n, st);
  for (int c : chain)
    if (const int from = g.nodes[c].op ? preferred_backend(g.nodes[c], st) : -1; to >= 0 && from >= 0 && to > from)
      return false;
  if (!replace_if_kernel(g.nodes[last], std::move(n), st)) return false;
  for (int c : chain)
    if (c != last) removed[c] = 1;
  return true;
}

}  // namespace onyx::graph::passes
