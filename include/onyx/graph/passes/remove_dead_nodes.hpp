// onyx/graph/passes/remove_dead_nodes.hpp: removes nodes no graph output
// depends on, and releases constants nothing reads any more.
// Tested in test/unit/remove_dead_nodes_test.cpp.
#pragma once

#include "onyx/graph/infer.hpp"

namespace onyx::graph::passes {

inline void remove_dead_nodes(graph& g, inferred& st) {
  std::vector<char> used(g.values.size(), 0);
  for (int id : g.outputs) used[id] = 1;
  std::vector<char> live(g.nodes.size(), 0);
  for (std::size_t k = g.nodes.size(); k-- > 0;) {
    const auto& n = g.nodes[k];
    for (int id : n.outputs)
      if (id >= 0 && used[id]) live[k] = 1;
    if (!live[k]) continue;
    for (int id : n.inputs)
      if (id >= 0) used[id] = 1;
    for (const auto& sg : n.subgraphs)
      for (int c : sg->captures) {
        int outer = g.find(sg->values[c].name);
        if (outer >= 0) used[outer] = 1;
      }
  }
  std::vector<node> kept;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (live[k]) kept.push_back(std::move(g.nodes[k]));
  g.nodes = std::move(kept);
  for (std::size_t id = 0; id < g.values.size(); ++id)
    if (!used[id] && g.values[id].constant) {
      g.values[id].constant.reset();
      st.known[id].reset();
    }
}

}  // namespace onyx::graph::passes
