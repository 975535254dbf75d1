// onyx/graph/passes/fuse_skip_layer_norm.hpp: a residual Add feeding a
// LayerNormalization becomes one com.microsoft SkipLayerNormalization, so
// the sum is not written and read back between two passes (a transformer
// block ends twice in one).
//
//   s = Add(a, b)                               a, b of rank 2 or 3, last dim H
//   y = LayerNormalization(s, gamma[, beta])    axis -1, only its first output read
// ->  y[, s] = SkipLayerNormalization(a, b, gamma[, beta], epsilon)
// When s has other readers (a pre-LN block's residual stream) the fused node
// also writes it, as its input_skip_bias_sum output. The fused node takes the
// Add's place, so every reader of s still comes after it. float32 only;
// gamma and beta are [H]. Fires only when the op table has
// SkipLayerNormalization with a float32 kernel.
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/skip_layer_normalization.hpp"

namespace onyx::graph::passes {

inline status fuse_skip_layer_norm(graph& g, inferred& st, const op_table& ops) {
  const op_info* skip_ln = find_op<ops::SkipLayerNormalization>(ops);
  if (!skip_ln) return ok();
  const readers r(g);
  const std::vector<int> producer = producers(g);
  std::vector<char> removed(g.nodes.size(), 0);
  // Whether value `id` is a float32 [H] vector.
  auto vector_of_h = [&](int id, std::int64_t h) {
    const auto& s = st.types[id].shape;
    return st.types[id].type == dtype::float32 && s.rank_known && s.rank() == 1 && s[0].known() && s[0].value() == h;
  };
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const node& ln = g.nodes[k];
    const auto* la = match<ops::LayerNormalization>(ln);
    if (!la || removed[k] || ln.inputs.size() < 2 || ln.inputs[0] < 0) continue;
    // Only the normalized output is read.
    bool stats_read = false;
    for (std::size_t o = 1; o < ln.outputs.size(); ++o) stats_read = stats_read || (ln.outputs[o] >= 0 && r.count[ln.outputs[o]]);
    if (stats_read) continue;
    const int s = ln.inputs[0];
    const int ka = producer[s];
    if (ka < 0 || removed[ka] || !match<ops::Add>(g.nodes[ka]) || g.nodes[ka].inputs.size() != 2) continue;
    const auto& xs = st.types[s].shape;
    if (st.types[s].type != dtype::float32 || !xs.rank_known || (xs.rank() != 2 && xs.rank() != 3)) continue;
    if (la->axis != -1 && la->axis != static_cast<std::int64_t>(xs.rank()) - 1) continue;
    if (!xs[xs.rank() - 1].known()) continue;
    const std::int64_t h = xs[xs.rank() - 1].value();
    // Both operands of rank 2 or 3 with last dim H (their leading dims broadcast, as the Add's did).
    const int a = g.nodes[ka].inputs[0], b = g.nodes[ka].inputs[1];
    auto operand = [&](int id) {
      if (id < 0 || st.types[id].type != dtype::float32) return false;
      const auto& p = st.types[id].shape;
      return p.rank_known && (p.rank() == 2 || p.rank() == 3) && p[p.rank() - 1].known() &&
             p[p.rank() - 1].value() == h;
    };
    if (!operand(a) || !operand(b)) continue;
    if (!vector_of_h(ln.inputs[1], h) || (ln.inputs.size() > 2 && ln.inputs[2] >= 0 && !vector_of_h(ln.inputs[2], h)))
      continue;

    auto attrs = std::make_shared<ops::SkipLayerNormalization::attributes>();
    attrs->epsilon = la->epsilon;
    node n;
    n.name = ln.name;
    n.op_type = "SkipLayerNormalization";
    n.domain = "com.microsoft";
    n.op = skip_ln;
    n.raw_attrs = {attribute{"epsilon", la->epsilon}};
    n.attrs = std::move(attrs);
    n.inputs = {a, b, ln.inputs[1]};
    if (ln.inputs.size() > 2 && ln.inputs[2] >= 0) n.inputs.push_back(ln.inputs[2]);
    n.outputs = {ln.outputs[0]};
    if (r.count[s] > 1) n.outputs = {ln.outputs[0], -1, -1, s};
    replace_chain(g, st, removed, {ka, static_cast<int>(k)}, ka, std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
