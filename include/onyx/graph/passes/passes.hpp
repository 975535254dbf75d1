// onyx/graph/passes/passes.hpp: the optimization pipeline, in order.
//
// A pass decision is a pure function of (graph, available ops).
#pragma once

#include "onyx/graph/passes/constant_folding.hpp"
#include "onyx/graph/passes/dead_nodes.hpp"

namespace onyx::graph::passes {

inline status optimize(graph& g, inferred& st, const evaluate_fn& evaluate) {
  ONYX_TRY(fold_constants(g, st, evaluate));
  remove_dead_nodes(g, st);
  return ok();
}

}  // namespace onyx::graph::passes
