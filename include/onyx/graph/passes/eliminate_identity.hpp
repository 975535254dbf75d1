// onyx/graph/passes/eliminate_identity.hpp: Identity nodes, and Dropout
// nodes that cannot be in training mode, removed; their readers read the
// input instead (ONNX Runtime's EliminateIdentity and EliminateDropout, at
// the basic level as there).
//
// A Dropout goes when its mask output is absent or unread and its
// training_mode input is absent or a constant false (the kernel, like the
// spec, copies its input then; opsets before 12 have no training mode).
// The node's output y takes its input x's place in every node that reads it.
// When y is a graph output, it cannot simply be renamed: the node goes only
// if x is made by another node of this graph, is read by nothing else and is
// no graph output, and then that node writes y directly. A y a subgraph
// captures by name stays, as does an Identity that copies a graph input or a
// constant to a graph output (normalize makes those on purpose).
// SqueezeNet's Dropout copied 512 x 13 x 13 floats each run.
// Tested in test/unit/eliminate_identity_test.cpp.
#pragma once

#include <vector>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/dropout.hpp"
#include "onyx/ops/identity.hpp"

namespace onyx::graph::passes {

namespace eliminate_identity_detail {

/// Whether node `n` returns its first input unchanged in every run, its
/// other outputs unread.
inline bool passes_through(const graph& g, const node& n, const readers& r) {
  if (n.inputs.empty() || n.inputs[0] < 0 || n.outputs.empty() || n.outputs[0] < 0) return false;
  if (match<ops::Identity>(n)) return true;
  if (!match<ops::Dropout>(n)) return false;
  if (n.outputs.size() > 1 && n.outputs[1] >= 0 && r.count[n.outputs[1]] > 0) return false;
  if (n.inputs.size() > 2 && n.inputs[2] >= 0) {
    const tensor* training = constant_of(g, n.inputs[2]);
    if (!training || training->type() != dtype::boolean || training->size() != 1 || training->data<bool>()[0])
      return false;
  }
  return true;
}

/// One flag per value of `g`: set where a node's subgraph captures it (by name).
inline std::vector<char> captured_values(const graph& g) {
  std::vector<char> flags(g.values.size(), 0);
  for (const auto& n : g.nodes)
    for (const auto& sg : n.subgraphs)
      for (int c : sg->captures)
        if (int outer = g.find(sg->values[c].name); outer >= 0) flags[outer] = 1;
  return flags;
}

/// One flag per value of `g`: set where it is a graph output.
inline std::vector<char> output_values(const graph& g) {
  std::vector<char> flags(g.values.size(), 0);
  for (int id : g.outputs) flags[id] = 1;
  return flags;
}

}  // namespace eliminate_identity_detail

inline status eliminate_identity(graph& g, inferred&) {
  using namespace eliminate_identity_detail;
  // Values stay as they are (only which node reads or writes them changes).
  const std::vector<char> captured = captured_values(g), output = output_values(g);
  // First the nodes whose output is no graph output: readers move to x.
  {
    const readers r(g);
    std::vector<int> source(g.values.size());
    for (std::size_t id = 0; id < source.size(); ++id) source[id] = static_cast<int>(id);
    std::vector<char> removed(g.nodes.size(), 0);
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
      node& n = g.nodes[k];
      for (int& id : n.inputs)
        if (id >= 0) id = source[id];
      const int y = n.outputs.empty() ? -1 : n.outputs[0];
      if (!passes_through(g, n, r) || output[y] || captured[y]) continue;
      source[y] = n.inputs[0];
      removed[k] = 1;
    }
    erase_marked(g, removed);
  }
  // Then those that make a graph output: the node making x writes y.
  const readers r(g);
  std::vector<int> producer(g.values.size(), -1);
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    for (int id : g.nodes[k].outputs)
      if (id >= 0) producer[id] = static_cast<int>(k);
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const node& n = g.nodes[k];
    if (!passes_through(g, n, r)) continue;
    const int x = n.inputs[0], y = n.outputs[0];
    const int p = producer[x];
    // x's only reader is this node (so x is no graph output and no capture)
    if (p < 0 || removed[p] || r.count[x] != 1 || captured[y]) continue;
    for (int& id : g.nodes[p].outputs)
      if (id == x) id = y;
    producer[y] = p;
    removed[k] = 1;
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
