// onyx/graph/passes/fuse_batch_norm.hpp: per-channel affine ops folded into
// the BatchNormalization before them.
//
// A BatchNormalization (inference, constant parameters) whose output has a
// single reader absorbs, in a chain, every following Mul / Div by and Add /
// Sub of a constant per channel (the same rules as fuse_conv, which takes a
// BatchNormalization that follows a Conv first): with the chain's affine map
// z -> A[c] z + Bc[c] after BN's z = (x - mean) / sqrt(var + eps) * scale + B,
// the node keeps mean, var and epsilon and gets scale' = A scale and
// B' = A B + Bc (computed in double). DenseNet's pre-activation blocks
// (BatchNormalization, Mul, Add, Relu on each concatenation) run two passes
// over memory instead of four. Fires for float32 and float64 X whose
// parameters have X's type; a node is absorbed only when it is the sole reader
// of the value before it.
//
// fuse_batch_norm_activation (the extended level, after it): an inference
// BatchNormalization whose output's sole reader is a Relu, or a Clip with
// constant bounds (float32 only), becomes onyx.fused.BatchNormalization with
// that clamp, when a backend runs it: one pass over memory instead of two
// (DenseNet-121 has 58 such pairs). Tested in test/unit/fuse_batch_norm_test.cpp.
#pragma once

#include <vector>

#include "onyx/graph/passes/fuse_conv.hpp"
#include "onyx/ops/fused/batch_normalization.hpp"

namespace onyx::graph::passes {

inline status fuse_batch_norm(graph& g, inferred& st) {
  using fuse_conv_detail::absorb;
  using fuse_conv_detail::affine;
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& bn = g.nodes[k];
    const auto* attrs = removed[k] ? nullptr : match<ops::BatchNormalization>(bn);
    if (!attrs || bn.inputs.size() != 5 || bn.outputs.empty() || bn.outputs[0] < 0) continue;
    bool extra_outputs = false;
    for (std::size_t i = 1; i < bn.outputs.size(); ++i) extra_outputs = extra_outputs || bn.outputs[i] >= 0;
    const int y = bn.outputs[0];
    const dtype t = st.types[y].type;
    if (extra_outputs || (t != dtype::float32 && t != dtype::float64) || !st.types[y].shape.rank_known) continue;
    const tensor* scale = constant_of(g, bn.inputs[1]);
    if (!scale || scale->rank() != 1) continue;
    const std::int64_t C = scale->dim(0);
    const auto s = vector_of(g, bn.inputs[1], t, C), b = vector_of(g, bn.inputs[2], t, C);
    if (s.empty() || b.empty() || vector_of(g, bn.inputs[3], t, C).empty() || vector_of(g, bn.inputs[4], t, C).empty())
      continue;
    const std::size_t rank = st.types[y].shape.rank();
    affine f{std::vector<double>(static_cast<std::size_t>(C), 1.0), std::vector<double>(static_cast<std::size_t>(C), 0.0)};
    bool folded = false;
    for (int next; (next = r.sole(bn.outputs[0])) >= 0;) {
      node& n = g.nodes[next];
      if (match<ops::BatchNormalization>(n) || !absorb(g, n, bn.outputs[0], t, rank, f)) break;
      bn.outputs[0] = n.outputs[0];
      removed[next] = 1;
      folded = true;
    }
    if (!folded) continue;
    tensor s2 = tensor::zeros(t, {C}), b2 = tensor::zeros(t, {C});
    for (std::int64_t c = 0; c < C; ++c) {
      const double sc = f.a[c] * s[c], bc = f.a[c] * b[c] + f.b[c];
      if (t == dtype::float32)
        s2.data<float>()[c] = static_cast<float>(sc), b2.data<float>()[c] = static_cast<float>(bc);
      else
        s2.data<double>()[c] = sc, b2.data<double>()[c] = bc;
    }
    bn.inputs[1] = add_constant(g, st, bn.name + "/folded_scale", std::move(s2));
    bn.inputs[2] = add_constant(g, st, bn.name + "/folded_B", std::move(b2));
  }
  erase_marked(g, removed);
  return ok();
}

inline status fuse_batch_norm_activation(graph& g, inferred& st, const op_table& ops) {
  const op_info* fused = find_op<ops::fused::BatchNormalization>(ops);
  if (!fused) return ok();
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& bn = g.nodes[k];
    const auto* attrs = removed[k] ? nullptr : match<ops::BatchNormalization>(bn);
    if (!attrs || attrs->training_mode != 0 || attrs->spatial != 1 || bn.inputs.size() != 5 ||
        bn.outputs.size() != 1 || bn.outputs[0] < 0)
      continue;
    const int y = bn.outputs[0];
    const int next = r.sole(y);
    if (next < 0 || removed[next]) continue;
    auto activation = fuse_conv_detail::activation_of(g, g.nodes[next], y);
    if (!activation) continue;
    const dtype t = st.types[y].type;
    if (t != dtype::float32 && activation->kind != ops::fused::activation_kind::relu) continue;
    auto a = std::make_shared<ops::fused::BatchNormalization::attributes>();
    a->epsilon = attrs->epsilon;
    a->activation = *activation;
    node n;
    n.name = bn.name;
    n.op_type = bn.op_type + "+" + g.nodes[next].op_type;
    n.domain = std::string(fused->domain);
    n.op = fused;
    n.attrs = std::move(a);
    // As ops::fused::BatchNormalization parses it back (a compact model).
    n.raw_attrs.push_back(attribute{"epsilon", attrs->epsilon});
    ops::fused::spell_activation(*activation, n.raw_attrs);
    n.inputs = bn.inputs;
    n.outputs = {g.nodes[next].outputs[0]};
    replace_chain(g, st, removed, {static_cast<int>(k), next}, static_cast<int>(k), std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
