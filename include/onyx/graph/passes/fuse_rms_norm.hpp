// onyx/graph/passes/fuse_rms_norm.hpp: RMSNorm written out in elementwise and
// reduce ops becomes one RMSNormalization node.
//
//   v = ReduceMean(x ^ 2, [-1], keepdims)     x ^ 2 as Pow(x, 2) or Mul(x, x)
//   y = x / Sqrt(v + eps)                      or x * Reciprocal(Sqrt(v + eps))
//   y = y * weight                             (weight * y too; optional)
// ->  RMSNormalization(x, weight, axis = -1, epsilon = eps)
// as torch.onnx.export writes LLaMA-style RMSNorm (T5LayerNorm, LlamaRMSNorm
// in float32). The reduced axis is the last; weight is a float32 constant
// of the last axis's C values (any leading 1s; ones when absent); every
// intermediate has one reader (x any number). float32 only. Fires only when
// the op table has RMSNormalization with a kernel for the type.
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/fuse_layer_norm.hpp"
#include "onyx/ops/reciprocal.hpp"
#include "onyx/ops/rms_normalization.hpp"

namespace onyx::graph::passes {

inline status fuse_rms_norm(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_layer_norm_detail;
  const op_info* rms = find_op<ops::RMSNormalization>(ops);
  if (!rms) return ok();
  const readers r(g);
  const std::vector<int> producer = producers(g);
  std::vector<char> removed(g.nodes.size(), 0);
  const chain_walk w{g, r, producer};
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const node& sq = g.nodes[k];
    if (removed[k] || sq.inputs.size() != 2 || sq.outputs.size() != 1) continue;
    const int x = sq.inputs[0];
    const bool square = (match<ops::Pow>(sq) && is_scalar(g, sq.inputs[1], 2.0, 0)) ||
                        (match<ops::Mul>(sq) && sq.inputs[1] == x);
    if (x < 0 || !square || st.types[x].type != dtype::float32) continue;
    const auto& shape = st.types[x].shape;
    if (!shape.rank_known || shape.rank() == 0 || !shape[shape.rank() - 1].known()) continue;
    const std::int64_t C = shape[shape.rank() - 1].value();
    const int km = static_cast<int>(k);

    const int kv = w.next(km);
    if (!mean_over_last(g, st, kv, sq.outputs[0])) continue;
    const int ke = w.next(kv);
    if (ke < 0 || !match<ops::Add>(g.nodes[ke])) continue;
    const auto eps = float_scalar_of(g, other_input(g.nodes[ke], g.nodes[kv].outputs[0]));
    if (!eps) continue;
    const int kr = w.next(ke);
    if (kr < 0 || !match<ops::Sqrt>(g.nodes[kr])) continue;
    std::vector<int> chain{km, kv, ke, kr};
    // x / sqrt, or x * Reciprocal(sqrt) in either order.
    int last = w.next(kr);
    if (last >= 0 && match<ops::Reciprocal>(g.nodes[last])) {
      chain.push_back(last);
      const int kmul = w.next(last);
      if (kmul < 0 || !match<ops::Mul>(g.nodes[kmul]) || other_input(g.nodes[kmul], g.nodes[last].outputs[0]) != x)
        continue;
      last = kmul;
    } else if (last < 0 || !match<ops::Div>(g.nodes[last]) || g.nodes[last].inputs[0] != x ||
               g.nodes[last].inputs[1] != g.nodes[kr].outputs[0]) {
      continue;
    }
    chain.push_back(last);

    // Optional * weight.
    std::optional<tensor> weight;
    if (const int kw = w.next(last); kw >= 0 && match<ops::Mul>(g.nodes[kw])) {
      if ((weight = last_axis_vector(g, other_input(g.nodes[kw], g.nodes[last].outputs[0]), C))) {
        chain.push_back(kw);
        last = kw;
      }
    }
    if (!unclaimed(removed, chain)) continue;

    if (!weight) weight = tensor::from(std::vector<float>(static_cast<std::size_t>(C), 1.0f), {C});
    const std::string base = g.nodes[last].name;
    auto attrs = std::make_shared<ops::RMSNormalization::attributes>();
    attrs->epsilon = *eps;
    node n;
    n.name = base;
    n.op_type = "RMSNormalization";
    n.op = rms;
    n.raw_attrs = {attribute{"axis", std::int64_t{-1}}, attribute{"epsilon", *eps}};
    n.attrs = std::move(attrs);
    n.inputs = {x, add_constant(g, st, base + "/scale", std::move(*weight))};
    n.outputs = g.nodes[last].outputs;
    replace_chain(g, st, removed, chain, last, std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
