// onyx/graph/passes/fuse_attention.hpp: multi-head attention written out in
// MatMul / Softmax / head split and merge becomes one Attention node
// (ONNX's, opset 23, so the op a model may also hold itself).
//
//   q = Transpose(Reshape(Q, [b, s, H, D]), [0, 2, 1, 3])
//   k = Transpose(Reshape(K, [b, t, H, D]), [0, 2, 3, 1])
//   v = Transpose(Reshape(V, [b, t, H, D]), [0, 2, 1, 3])
//   p = Softmax(MatMul(q, k) [/ c | * c] [+ mask], axis -1)
//   Y = Reshape(Transpose(MatMul(p, v), [0, 2, 1, 3]), [b, s, H * D])
// ->  Attention(Q, K, V, mask, q_num_heads = kv_num_heads = H, scale = 1/c or c)
// as torch.onnx.export writes a BERT-style self-attention (Q, K, V the
// outputs of the three projections, [b, s, H * D]). H and D are the last two
// entries of the head split's shape, a constant or a Concat whose trailing
// inputs are constants (torch's view(*x.size()[:-1], H, D): the leading dims
// come from Shape / Gather and may stay symbolic); the dead shape arithmetic
// is removed by remove_dead_nodes. The mask may be any float32 value that broadcast to the
// scores' [b, H, s, t] in the Add (the kernel broadcasts it the same way).
// Every intermediate value must have one reader, but for the merged value
// whose Shape torch reads to compute the merge's target: the nodes that only
// fed removed ones go too, and the fusion is skipped when a removed value
// would still be read. The Attention kernel
// (kernels/cpu/attention.hpp) reads Q, K and V in place with their row
// stride, so the head split and merge copies disappear with the nodes.
// Fires only when the op table has Attention with a kernel for float32.
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/attention.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/ops/transpose.hpp"

namespace onyx::graph::passes {

namespace fuse_attention_detail {

struct finder : chain_walk {
  const inferred& st;

  /// The last `n` entries of the int64 shape value `id`, when known: a
  /// constant, or a Concat (axis 0) whose trailing inputs are constants
  /// (torch's `view(*x.size()[:-1], H, D)`: Shape/Gather dims, then [H], [D]).
  /// Empty when unknown or when one is 0 or -1 (copied or inferred dims).
  std::vector<std::int64_t> shape_tail(int id, std::size_t n) const {
    std::vector<std::int64_t> tail;
    auto take = [&](const tensor& t) {
      const auto v = t.values<std::int64_t>();
      for (std::size_t i = v.size(); i-- > 0 && tail.size() < n;) tail.insert(tail.begin(), v[i]);
    };
    if (const tensor* c = constant_of(g, id); c && c->type() == dtype::int64) {
      take(*c);
    } else if (const int p = id >= 0 ? producer[id] : -1; p >= 0) {
      const auto* ca = match<ops::Concat>(g.nodes[p]);
      if (!ca || (ca->axis != 0 && ca->axis != -1)) return {};
      for (std::size_t i = g.nodes[p].inputs.size(); i-- > 0 && tail.size() < n;) {
        const tensor* c = constant_of(g, g.nodes[p].inputs[i]);
        if (!c || c->type() != dtype::int64 || c->rank() != 1) return {};
        take(*c);
      }
    }
    if (tail.size() != n) return {};
    for (auto d : tail)
      if (d <= 0) return {};
    return tail;
  }

  /// A head split read by `reader`: Transpose(perm) of Reshape(X) to [., ., H, D];
  /// X (rank 3, last dim H * D) and the nodes, or X = -1.
  struct split {
    int x = -1, transpose = -1, reshape = -1;
    std::int64_t heads = 0, head = 0;
  };
  split head_split(int id, int reader, const std::vector<std::int64_t>& perm) const {
    split s;
    const int kt = feeding(id, reader);
    if (kt < 0) return s;
    const auto* ta = match<ops::Transpose>(g.nodes[kt]);
    if (!ta || ta->perm != perm) return s;
    const int kr = feeding(g.nodes[kt].inputs[0], kt);
    if (kr < 0 || !match<ops::Reshape>(g.nodes[kr])) return s;
    const auto& split_shape = st.types[g.nodes[kr].outputs[0]].shape;
    const int x = g.nodes[kr].inputs[0];
    if (x < 0 || st.types[x].type != dtype::float32 || !split_shape.rank_known || split_shape.rank() != 4) return s;
    const auto hd = shape_tail(g.nodes[kr].inputs[1], 2);
    const auto& xs = st.types[x].shape;
    if (hd.empty() || !xs.rank_known || xs.rank() != 3 || !xs[2].known() || xs[2].value() != hd[0] * hd[1]) return s;
    return {x, kt, kr, hd[0], hd[1]};
  }
};

}  // namespace fuse_attention_detail

inline status fuse_attention(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_attention_detail;
  const op_info* attention = find_op<ops::Attention>(ops);
  if (!attention) return ok();
  const readers r(g);
  const std::vector<int> producer = producers(g);
  const finder f{{g, r, producer}, st};
  const std::vector<std::int64_t> bhsd{0, 2, 1, 3}, bhds{0, 2, 3, 1};
  std::vector<char> removed(g.nodes.size(), 0);
  std::vector<int> live = r.count;  // readers not yet removed, per value
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const int ksm = static_cast<int>(k);
    const auto* sa = match<ops::Softmax>(g.nodes[k]);
    if (removed[k] || !sa || g.nodes[k].outputs.size() != 1) continue;
    const int scores_in = g.nodes[k].inputs[0];
    const auto& ss = st.types[scores_in].shape;
    if (!ss.rank_known || ss.rank() != 4 || (sa->axis != -1 && sa->axis != 3)) continue;
    std::vector<int> chain{ksm};

    // [+ mask], then [/ c | * c], back to MatMul(q, k).
    int at = f.feeding(scores_in, ksm), mask = -1;
    float scale = 1.0f;
    bool scaled = false;
    if (at >= 0 && match<ops::Add>(g.nodes[at]) && g.nodes[at].inputs.size() == 2) {
      const node& add = g.nodes[at];
      for (int i : {0, 1}) {
        const int p = f.feeding(add.inputs[i], at);
        if (p >= 0 && (match<ops::Div>(g.nodes[p]) || match<ops::Mul>(g.nodes[p]) || match<ops::MatMul>(g.nodes[p]))) {
          mask = add.inputs[1 - i];
          chain.push_back(at);
          at = p;
          break;
        }
      }
      if (mask < 0 || st.types[mask].type != dtype::float32) continue;
    }
    if (at >= 0 && match<ops::Div>(g.nodes[at]) && g.nodes[at].inputs.size() == 2) {
      auto c = float_scalar_of(g, g.nodes[at].inputs[1]);
      if (!c || *c == 0) continue;
      scale = 1.0f / *c, scaled = true;
      chain.push_back(at);
      at = f.feeding(g.nodes[at].inputs[0], at);
    } else if (at >= 0 && match<ops::Mul>(g.nodes[at]) && g.nodes[at].inputs.size() == 2) {
      int from = -1;
      for (int i : {0, 1})
        if (auto c = float_scalar_of(g, g.nodes[at].inputs[1 - i])) scale = *c, from = g.nodes[at].inputs[i];
      if (from < 0) continue;
      scaled = true;
      chain.push_back(at);
      at = f.feeding(from, at);
    }
    if (at < 0 || !match<ops::MatMul>(g.nodes[at])) continue;
    const int kqk = at;
    chain.push_back(kqk);
    const auto q = f.head_split(g.nodes[kqk].inputs[0], kqk, bhsd);
    const auto kk = f.head_split(g.nodes[kqk].inputs[1], kqk, bhds);

    // Softmax -> MatMul(p, v) -> Transpose -> Reshape to [b, s, H * D].
    const int kpv = f.next(ksm);
    if (q.x < 0 || kk.x < 0 || kpv < 0 || !match<ops::MatMul>(g.nodes[kpv]) ||
        g.nodes[kpv].inputs[0] != g.nodes[k].outputs[0])
      continue;
    const auto v = f.head_split(g.nodes[kpv].inputs[1], kpv, bhsd);
    const int kmt = f.next(kpv);
    if (v.x < 0 || kmt < 0) continue;
    const auto* mt = match<ops::Transpose>(g.nodes[kmt]);
    if (!mt || mt->perm != bhsd) continue;
    // The merge Reshape; torch also reads the merged value's Shape for its
    // target, which dies with it (checked below).
    int kmr = -1;
    for (std::size_t j = kmt + 1; j < g.nodes.size() && kmr < 0; ++j)
      if (match<ops::Reshape>(g.nodes[j]) && g.nodes[j].inputs[0] == g.nodes[kmt].outputs[0]) kmr = static_cast<int>(j);
    if (kmr < 0) continue;
    const auto& ys = st.types[g.nodes[kmr].outputs[0]].shape;
    const auto merged = f.shape_tail(g.nodes[kmr].inputs[1], 1);
    if (q.heads != kk.heads || q.heads != v.heads || q.head != kk.head || !ys.rank_known || ys.rank() != 3 ||
        merged.empty() || merged[0] != q.heads * v.head)
      continue;
    chain.insert(chain.end(), {q.transpose, q.reshape, kk.transpose, kk.reshape, kpv, v.transpose, v.reshape, kmt});
    if (removed[kmr] || !unclaimed(removed, chain)) continue;

    // Remove the chain, then whatever only it (and the replaced Reshape's
    // shape input) read; fuse only if every removed value is then unread.
    std::vector<char> gone = removed;
    std::vector<int> left = live;
    std::vector<int> work;
    auto release = [&](int k2) {
      for (int id : g.nodes[k2].inputs)
        if (id >= 0 && --left[id] == 0 && producer[id] >= 0) work.push_back(producer[id]);
    };
    for (int id : {q.x, kk.x, v.x, mask})  // the Attention node reads these
      if (id >= 0) ++left[id];
    for (int c : chain) gone[c] = 1, release(c);
    release(kmr);
    std::vector<int> dead = chain;
    while (!work.empty()) {
      const int p = work.back();
      work.pop_back();
      if (gone[p] || !g.nodes[p].subgraphs.empty()) continue;
      bool unread = true;
      for (int o : g.nodes[p].outputs) unread = unread && (o < 0 || left[o] == 0);
      if (!unread) continue;
      gone[p] = 1;
      dead.push_back(p);
      release(p);
    }
    bool clean = true;
    for (int d : dead)
      for (int o : g.nodes[d].outputs) clean = clean && (o < 0 || left[o] == 0);
    if (!clean) continue;

    auto attrs = std::make_shared<ops::Attention::attributes>();
    attrs->q_num_heads = attrs->kv_num_heads = q.heads;
    if (!scaled) scale = 1.0f;  // the spec's default would be 1/sqrt(D)
    attrs->scale = scale;
    node n;
    n.name = g.nodes[kmr].name;
    n.op_type = "Attention";
    n.op = attention;
    n.raw_attrs = {attribute{"q_num_heads", q.heads}, attribute{"kv_num_heads", q.heads}, attribute{"scale", scale}};
    n.attrs = std::move(attrs);
    n.inputs = {q.x, kk.x, v.x};
    if (mask >= 0) n.inputs.push_back(mask);
    n.outputs = g.nodes[kmr].outputs;
    if (!replace_if_kernel(g.nodes[kmr], std::move(n), st)) continue;
    removed = std::move(gone);
    live = std::move(left);
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
