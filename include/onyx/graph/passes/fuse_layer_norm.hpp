// onyx/graph/passes/fuse_layer_norm.hpp: LayerNorm written out in
// elementwise and reduce ops becomes one LayerNormalization node.
//
//   m = ReduceMean(x, [-1], keepdims)      (torch.onnx.export of nn.LayerNorm below opset 17)
//   d = x - m
//   v = ReduceMean(d ^ 2, [-1], keepdims)  d ^ 2 as Pow(d, 2) or Mul(d, d)
//   y = d / Sqrt(v + eps) [* gamma] [+ beta]
// ->  LayerNormalization(x, gamma, beta, axis = -1, epsilon = eps)
// The reduced axis is the last (written -1 or rank - 1); gamma and beta are
// constants of x's type holding the last axis's C values (any leading 1s),
// a missing gamma becomes ones. d has exactly the two readers above and every
// other intermediate one reader. float32 only. Fires only when the op table
// has LayerNormalization with a kernel for the type.
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/pow.hpp"
#include "onyx/ops/reduce.hpp"
#include "onyx/ops/sqrt.hpp"
#include "onyx/ops/sub.hpp"

namespace onyx::graph::passes {

namespace fuse_layer_norm_detail {

/// Whether node k is a ReduceMean of `x` over its last axis, keeping dims.
inline bool mean_over_last(const graph& g, const inferred& st, int k, int x) {
  if (k < 0) return false;
  const node& n = g.nodes[k];
  const auto* a = match<ops::ReduceMean>(n);
  if (!a || a->keepdims != 1 || n.inputs.size() != 2 || n.inputs[0] != x || n.outputs.size() != 1) return false;
  const tensor* axes = constant_of(g, n.inputs[1]);
  const auto& shape = st.types[x].shape;
  if (!axes || axes->type() != dtype::int64 || axes->size() != 1 || !shape.rank_known) return false;
  const std::int64_t axis = axes->data<std::int64_t>()[0];
  return axis == -1 || axis == static_cast<std::int64_t>(shape.rank()) - 1;
}

/// `id` as a rank-1 constant of C float32 values (from any shape [1, ..., 1, C]), or empty.
inline std::optional<tensor> last_axis_vector(const graph& g, int id, std::int64_t C) {
  const tensor* c = constant_of(g, id);
  if (!c || c->type() != dtype::float32 || c->rank() < 1 || c->dim(c->rank() - 1) != C || c->size() != C)
    return std::nullopt;
  return tensor::from(std::span<const float>(c->data<float>(), static_cast<std::size_t>(C)), {C});
}

}  // namespace fuse_layer_norm_detail

inline status fuse_layer_norm(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_layer_norm_detail;
  const op_info* ln = find_op<ops::LayerNormalization>(ops);
  if (!ln) return ok();
  const readers r(g);
  const std::vector<int> producer = producers(g);
  std::vector<char> removed(g.nodes.size(), 0);
  const chain_walk w{g, r, producer};
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const int km = static_cast<int>(k);
    if (removed[k] || g.nodes[k].inputs.empty()) continue;
    const int x = g.nodes[k].inputs[0];
    if (x < 0 || st.types[x].type != dtype::float32 || !mean_over_last(g, st, km, x)) continue;
    const auto& shape = st.types[x].shape;
    if (!shape[shape.rank() - 1].known()) continue;
    const std::int64_t C = shape[shape.rank() - 1].value();

    // d = x - m, read by the square and the division only.
    const int ks = w.next(km);
    if (ks < 0 || !match<ops::Sub>(g.nodes[ks]) || g.nodes[ks].inputs != std::vector<int>{x, g.nodes[k].outputs[0]})
      continue;
    const int d = g.nodes[ks].outputs[0];
    int ksq = -1, kdiv = -1;
    for (std::size_t j = ks + 1; j < g.nodes.size(); ++j) {
      const node& n = g.nodes[j];
      if (n.inputs.size() != 2 || (n.inputs[0] != d && n.inputs[1] != d)) continue;
      if ((match<ops::Pow>(n) && n.inputs[0] == d && is_scalar(g, n.inputs[1], 2.0, 0)) ||
          (match<ops::Mul>(n) && n.inputs[0] == d && n.inputs[1] == d))
        ksq = static_cast<int>(j);
      else if (match<ops::Div>(n) && n.inputs[0] == d)
        kdiv = static_cast<int>(j);
    }
    // Mul(d, d) reads d twice.
    if (ksq < 0 || kdiv < 0 || r.count[d] != (match<ops::Mul>(g.nodes[ksq]) ? 3 : 2)) continue;
    const int kv = w.next(ksq);
    if (!mean_over_last(g, st, kv, g.nodes[ksq].outputs[0])) continue;
    const int ke = w.next(kv);
    if (ke < 0 || !match<ops::Add>(g.nodes[ke])) continue;
    const auto eps = float_scalar_of(g, other_input(g.nodes[ke], g.nodes[kv].outputs[0]));
    if (!eps) continue;
    const int kr = w.next(ke);
    if (kr < 0 || !match<ops::Sqrt>(g.nodes[kr]) || w.next(kr) != kdiv ||
        g.nodes[kdiv].inputs[1] != g.nodes[kr].outputs[0])
      continue;
    std::vector<int> chain{km, ks, ksq, kv, ke, kr, kdiv};

    // Optional * gamma, + beta.
    int last = kdiv;
    std::optional<tensor> gamma, beta;
    if (const int kg = w.next(last); kg >= 0 && match<ops::Mul>(g.nodes[kg])) {
      if ((gamma = last_axis_vector(g, other_input(g.nodes[kg], g.nodes[last].outputs[0]), C))) {
        chain.push_back(kg);
        last = kg;
      }
    }
    if (const int kb = w.next(last); kb >= 0 && match<ops::Add>(g.nodes[kb])) {
      if ((beta = last_axis_vector(g, other_input(g.nodes[kb], g.nodes[last].outputs[0]), C))) {
        chain.push_back(kb);
        last = kb;
      }
    }
    if (!unclaimed(removed, chain)) continue;

    if (!gamma) gamma = tensor::from(std::vector<float>(static_cast<std::size_t>(C), 1.0f), {C});
    const std::string base = g.nodes[last].name;
    auto attrs = std::make_shared<ops::LayerNormalization::attributes>();
    attrs->epsilon = *eps;
    node n;
    n.name = base;
    n.op_type = "LayerNormalization";
    n.op = ln;
    n.raw_attrs = {attribute{"axis", std::int64_t{-1}}, attribute{"epsilon", *eps}};
    n.attrs = std::move(attrs);
    n.inputs = {x, add_constant(g, st, base + "/scale", std::move(*gamma))};
    if (beta) n.inputs.push_back(add_constant(g, st, base + "/bias", std::move(*beta)));
    n.outputs = g.nodes[last].outputs;
    replace_chain(g, st, removed, chain, last, std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
