// onyx/runtime/optimize.hpp: a model through the whole pipeline but binding,
// and the kernels it then needs.
//
// optimize_model runs what a session's creation runs (resolve, normalize,
// inference, the optimization passes; subgraph bodies too) against the op
// table of a full build, and reports every (op, type signature, backend)
// the optimized graphs run. onyx-ops writes the result as a compact model
// (graph/compact.hpp) and the op list a trimmed build needs: a program built
// from that list loads the optimized model, runs no passes, and so never
// needs a kernel that only constant folding or a fusion used.
// Tested in test/unit/compact_test.cpp.
#pragma once

#include <algorithm>

#include "onyx/graph/normalize.hpp"
#include "onyx/graph/resolve.hpp"
#include "onyx/runtime/compiled_graph.hpp"

namespace onyx::runtime {

/// One kernel an optimized model runs.
struct kernel_use {
  const op_info* op = nullptr;
  ops::signature sig;
  const backend_info* backend = nullptr;
  friend bool operator==(const kernel_use&, const kernel_use&) = default;
};

struct optimized_model {
  graph::model model;              // resolved and optimized; marked `optimized`
  std::vector<kernel_use> kernels;  // each once, in first-use order
};

namespace optimize_detail {

inline status optimize_body(graph::graph& g, const compile_options& co, const graph::graph* outer_graph,
                            const graph::inferred* outer, std::vector<kernel_use>& uses) {
  ONYX_ASSIGN(auto done, infer_and_optimize(g, co, outer_graph, outer));
  for (const auto& n : g.nodes) {
    auto found = find_kernel(n, done.types, outer_graph != nullptr);
    if (!found.ok()) return std::move(found).error().with_context(n.label());
    kernel_use u{n.op, graph::signature_of(n, done.types), found->second};
    if (std::find(uses.begin(), uses.end(), u) == uses.end()) uses.push_back(u);
    for (const auto& sg : n.subgraphs) {
      status s = optimize_body(const_cast<graph::graph&>(*sg), co, &g, &done.types, uses);
      // A body inference did not reach fails if it runs (compile() keeps its
      // error), so it needs no kernel.
      if (!s.ok() && done.types.bodies.count(sg.get())) return std::move(s).with_context(n.label());
    }
  }
  return ok();
}

}  // namespace optimize_detail

/// `m` optimized against `ops` as a session would (passes per `passes`;
/// none when `optimize` is false), with the kernels its graphs then run.
inline result<optimized_model> optimize_model(graph::model m, const op_table& ops,
                                              const graph::passes::pass_options& passes = {}, bool optimize = true) {
  ONYX_TRY(graph::resolve_ops(m, ops));
  ONYX_TRY(graph::normalize(*m.main, ops));
  optimized_model out;
  compile_options co{optimize && !m.optimized, nullptr, ops, {}, passes};
  ONYX_TRY(optimize_detail::optimize_body(*m.main, co, nullptr, nullptr, out.kernels));
  m.optimized = true;
  out.model = std::move(m);
  return out;
}

}  // namespace onyx::runtime
