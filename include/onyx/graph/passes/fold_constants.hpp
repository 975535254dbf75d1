// onyx/graph/passes/fold_constants.hpp: nodes whose outputs are known
// before any input arrives become constants.
//
// Inference already propagated small values; this pass also evaluates nodes
// of any size whose inputs are all constant (the light models build every
// weight with ConstantOfShape) and removes every node it could evaluate.
// Nodes with subgraphs and ops whose outputs are random (op_info's
// `deterministic` false, from the op struct) are never folded.
// Tested in test/unit/fold_constants_test.cpp.
#pragma once

#include "onyx/graph/infer.hpp"

namespace onyx::graph::passes {

/// Whether evaluating `n` once stands for every run of it.
inline bool foldable(const node& n) { return n.subgraphs.empty() && n.op && n.op->deterministic; }

inline status fold_constants(graph& g, inferred& st, const evaluate_fn& evaluate) {
  std::vector<node> kept;
  for (auto& n : g.nodes) {
    bool known = foldable(n);
    for (int id : n.outputs)
      if (id >= 0 && !st.known[id]) known = false;
    if (!known && foldable(n)) {
      std::vector<const tensor*> ins;
      bool inputs_known = true;
      for (int id : n.inputs) {
        if (id >= 0 && !st.known[id]) inputs_known = false;
        ins.push_back(id >= 0 && st.known[id] ? &*st.known[id] : nullptr);
      }
      if (inputs_known) {
        auto outs = evaluate(n, ins, st);
        if (outs.ok()) {
          known = true;
          for (std::size_t i = 0; i < n.outputs.size(); ++i)
            if (n.outputs[i] >= 0) {
              if (i >= outs->size() || (*outs)[i].empty())
                known = false;
              else
                st.known[n.outputs[i]] = std::move((*outs)[i]);
            }
        }
      }
    }
    if (!known) {
      kept.push_back(std::move(n));
      continue;
    }
    for (int id : n.outputs)
      if (id >= 0) {
        g.values[id].constant = st.known[id];
        st.types[id].shape = sym_shape(st.known[id]->shape());
      }
  }
  g.nodes = std::move(kept);
  return ok();
}

}  // namespace onyx::graph::passes
