// test/unit/pass_harness.hpp: a model taken through load, normalize and
// inference with the full op table, so a pass test runs one pass on it and
// looks at the nodes it left (graph::passes::match gives their typed
// attributes); and the helpers the pass tests share to build models and
// compare a session's optimized graph.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/passes/passes.hpp"
#include "onyx/runtime/compiled_graph.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"

namespace onyx::test {

/// A model after inference: the state every pass starts from.
struct inferred_model {
  graph::model m;
  graph::inferred st;
  graph::evaluate_fn evaluate = runtime::make_evaluator(nullptr);
  op_table ops = session::all_ops();

  graph::graph& g() { return *m.main; }
  /// Qualified op names of the graph's nodes, in order.
  std::vector<std::string> ops_of() {
    std::vector<std::string> v;
    for (const auto& n : g().nodes) v.push_back(n.op->qualified_name());
    return v;
  }
};

/// A tensor of `e` with values uniform in [lo, hi) (test::random_values).
template <class T = float>
tensor random_tensor(const extents& e, double lo, double hi, unsigned seed) {
  return tensor::from(random_values<T>(static_cast<std::size_t>(element_count(e)), lo, hi, seed), e);
}

/// The op types of a session's prepared graph, in run order ("Conv+Relu" for
/// a fused node).
inline std::vector<std::string> ops_of(const session_core& s) {
  std::vector<std::string> v;
  for (const auto& n : s.nodes()) v.push_back(n.op);
  return v;
}

inline inferred_model infer_model(const std::filesystem::path& path) {
  inferred_model r;
  auto m = graph::load_model(path, r.ops);
  REQUIRE(m.ok());
  r.m = std::move(m).value();
  REQUIRE(graph::resolve_ops(r.m, r.ops).ok());
  REQUIRE(graph::normalize(r.g(), r.ops).ok());
  r.st = graph::initial_state(r.g());
  REQUIRE(graph::infer_graph(r.g(), r.st, r.evaluate).ok());
  return r;
}

}  // namespace onyx::test
