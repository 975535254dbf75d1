// onyx/graph/passes/passes.hpp: the optimization pipeline, in order.
//
// A pass decision is a pure function of (graph, available ops).
#pragma once

#include "onyx/graph/passes/constant_folding.hpp"
#include "onyx/graph/passes/dead_nodes.hpp"
#include "onyx/graph/passes/fuse_conv.hpp"
#include "onyx/graph/passes/fuse_gemm.hpp"

namespace onyx::graph::passes {

inline status optimize(graph& g, inferred& st, const evaluate_fn& evaluate, const op_table& ops) {
  ONYX_TRY(fold_constants(g, st, evaluate));
  ONYX_TRY(fuse_conv(g, st, ops));
  ONYX_TRY(fuse_gemm(g, st, ops));
  remove_dead_nodes(g, st);
  return ok();
}

}  // namespace onyx::graph::passes
