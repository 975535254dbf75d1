// onyx/graph/passes/fuse_conv.hpp: per-channel affine ops and clamps folded
// into the Conv before them.
//
// A Conv with constant W (and B) whose output has a single reader absorbs, in
// a chain, every following
//   BatchNormalization (inference, constant parameters): y * s + (beta - mean * s),
//                                                        s = scale / sqrt(var + epsilon)
//   Mul / Div by a constant per channel                  y * c, y / c
//   Add / Sub of a constant per channel                  y + c, y - c, c - y
// as one affine map per output channel m, y -> a[m] * y + b[m], which becomes
// W'[m] = a[m] W[m] and B'[m] = a[m] B[m] + b[m] (computed in double, float32
// and float64 convs). "Per channel" means the constant broadcasts to 1 on
// every axis but the channel axis, so the node's output has the conv's shape.
// Then a residual Add or two-input Sum of a value with the conv output's
// shape (a ResNet block's shortcut; float32) and/or a following Relu, or Clip
// with constant bounds, turn the Conv into onyx.fused.Conv (Z added and the
// clamp applied in the GEMM epilogue), when the op table has that op with a
// kernel for the conv's dtype. With a residual the fused node takes the Add's
// place (the shortcut may be computed after the Conv), else the Conv's.
// Each absorbed node must be the only reader of the value before it (no other
// node, subgraph or graph output sees the intermediate), so no value anyone
// reads changes. The fused node's activation is typed
// (ops::fused::activation). Tested in test/unit/fuse_conv_test.cpp.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/sum.hpp"

namespace onyx::graph::passes {

namespace fuse_conv_detail {

/// y -> a[m] y + b[m] per output channel.
struct affine {
  std::vector<double> a, b;
};

/// Composes `n` (reading `y`, the conv chain's current output) into `f`;
/// false when `n` is not a per-channel affine op of the right kind.
inline bool absorb(const graph& g, const node& n, int y, dtype t, std::size_t rank, affine& f) {
  const auto M = static_cast<std::int64_t>(f.a.size());
  if (const auto* bn = match<ops::BatchNormalization>(n)) {
    if (n.inputs.size() != 5 || n.inputs[0] != y || bn->training_mode != 0 || bn->spatial != 1) return false;
    for (std::size_t i = 1; i < n.outputs.size(); ++i)
      if (n.outputs[i] >= 0) return false;
    auto scale = vector_of(g, n.inputs[1], t, M), beta = vector_of(g, n.inputs[2], t, M);
    auto mean = vector_of(g, n.inputs[3], t, M), var = vector_of(g, n.inputs[4], t, M);
    if (scale.empty() || beta.empty() || mean.empty() || var.empty()) return false;
    const double eps = bn->epsilon;
    for (std::int64_t m = 0; m < M; ++m) {
      const double s = scale[m] / std::sqrt(var[m] + eps);
      f.a[m] *= s;
      f.b[m] = (f.b[m] - mean[m]) * s + beta[m];
    }
    return true;
  }
  const bool mul = match<ops::Mul>(n), div = match<ops::Div>(n), add = match<ops::Add>(n), sub = match<ops::Sub>(n);
  if (!(mul || div || add || sub) || n.inputs.size() != 2 || n.outputs.size() != 1) return false;
  const int at = n.inputs[0] == y ? 0 : 1;  // y's position; the other input is the constant
  if ((div && at != 0) || n.inputs[at] != y) return false;
  auto c = per_channel(g, n.inputs[1 - at], t, rank, M);
  if (c.empty()) return false;
  for (std::int64_t m = 0; m < M; ++m) {
    if (mul)
      f.a[m] *= c[m], f.b[m] *= c[m];
    else if (div)
      f.a[m] /= c[m], f.b[m] /= c[m];
    else if (add)
      f.b[m] += c[m];
    else if (at == 0)
      f.b[m] -= c[m];
    else
      f.a[m] = -f.a[m], f.b[m] = c[m] - f.b[m];
  }
  return true;
}

/// The activation of a Relu, or of a Clip with constant float32/float16
/// bounds, reading `y`; nullopt for any other node.
inline std::optional<ops::fused::activation> activation_of(const graph& g, const node& n, int y) {
  if (n.inputs.empty() || n.inputs[0] != y || n.outputs.size() != 1) return std::nullopt;
  if (match<ops::Relu>(n)) return ops::fused::activation::relu();
  if (!match<ops::Clip>(n)) return std::nullopt;
  ops::fused::activation clip =
      ops::fused::activation::clip(-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity());
  for (std::size_t i = 1; i < n.inputs.size() && i < 3; ++i) {
    if (n.inputs[i] < 0) continue;
    auto bound = float_scalar_of(g, n.inputs[i]);
    if (!bound) return std::nullopt;
    (i == 1 ? clip.min : clip.max) = *bound;
  }
  return clip;
}

/// The shortcut Z when `n` is Add(y, Z) or Sum(y, Z) (either order) with Z a
/// float32 tensor of y's shape, else -1.
inline int residual_of(const node& n, int y, const inferred& st) {
  if (!(match<ops::Add>(n) || match<ops::Sum>(n)) || n.outputs.size() != 1 || n.outputs[0] < 0) return -1;
  const int z = other_input(n, y);
  if (z < 0 || z == y) return -1;
  const value_type& zt = st.types[z];
  const value_type& yt = st.types[y];
  if (zt.kind != value_kind::tensor || zt.type != dtype::float32 || !zt.shape.rank_known ||
      zt.shape.rank() != yt.shape.rank() || !(zt.shape.dims == yt.shape.dims))
    return -1;
  return z;
}

/// W'[m] = a[m] W[m], B'[m] = a[m] B[m] + b[m].
template <class T>
void scale_rows(const affine& f, const tensor* bias, tensor& w, tensor& b) {
  const auto M = static_cast<std::int64_t>(f.a.size()), per = w.size() / M;
  T* wp = w.data<T>();
  T* bp = b.data<T>();
  for (std::int64_t m = 0; m < M; ++m) {
    for (std::int64_t i = 0; i < per; ++i) wp[m * per + i] = static_cast<T>(f.a[m] * wp[m * per + i]);
    bp[m] = static_cast<T>(f.a[m] * (bias ? bias->data<T>()[m] : T(0)) + f.b[m]);
  }
}

/// Gives `conv` the folded W and B, as new constants (W may be shared).
inline void apply(graph& g, inferred& st, node& conv, const affine& f) {
  const tensor& w = *g.values[conv.inputs[1]].constant;
  const tensor* bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0 ? &*g.values[conv.inputs[2]].constant : nullptr;
  tensor w2 = w.clone(), b2 = tensor::zeros(w.type(), {w.dim(0)});
  if (w.type() == dtype::float32)
    scale_rows<float>(f, bias, w2, b2);
  else
    scale_rows<double>(f, bias, w2, b2);
  int wid = add_constant(g, st, conv.name + "/folded_W", std::move(w2));
  int bid = add_constant(g, st, conv.name + "/folded_B", std::move(b2));
  conv.inputs.resize(3);
  conv.inputs[1] = wid;
  conv.inputs[2] = bid;
}

}  // namespace fuse_conv_detail

inline status fuse_conv(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_conv_detail;
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  const op_info* fused = find_op<ops::fused::Conv>(ops);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& conv = g.nodes[k];
    const auto* conv_attrs = removed[k] ? nullptr : match<ops::Conv>(conv);
    if (!conv_attrs || conv.inputs.size() < 2 || conv.outputs.size() != 1 || conv.outputs[0] < 0) continue;
    const int w = conv.inputs[1];
    const dtype t = st.types[conv.outputs[0]].type;
    if (w < 0 || !g.values[w].constant || g.values[w].constant->rank() < 3 ||
        !st.types[conv.outputs[0]].shape.rank_known)
      continue;
    const std::size_t rank = st.types[conv.outputs[0]].shape.rank();
    const std::int64_t M = g.values[w].constant->dim(0);

    // Per-channel affine ops (float32 and float64).
    const bool has_bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0;
    const bool foldable = (t == dtype::float32 || t == dtype::float64) && M > 0 &&
                          (!has_bias || vector_of(g, conv.inputs[2], t, M).size() == static_cast<std::size_t>(M));
    affine f{std::vector<double>(static_cast<std::size_t>(M), 1.0),
             std::vector<double>(static_cast<std::size_t>(M), 0.0)};
    bool folded = false;
    for (int next; foldable && (next = r.sole(conv.outputs[0])) >= 0;) {
      node& n = g.nodes[next];
      if (!absorb(g, n, conv.outputs[0], t, rank, f)) break;
      conv.outputs[0] = n.outputs[0];
      removed[next] = 1;
      folded = true;
    }
    if (folded) apply(g, st, conv, f);

    // A residual and/or a clamp after it: onyx.fused.Conv.
    int next = r.sole(conv.outputs[0]);
    if (next < 0 || !fused) continue;
    std::vector<int> chain{static_cast<int>(k)};
    std::string op_type = "Conv";
    int y = conv.outputs[0], z = -1;
    if (t == dtype::float32 && !removed[next]) {
      z = residual_of(g.nodes[next], y, st);
      if (z >= 0) {
        chain.push_back(next);
        op_type += "+" + g.nodes[next].op_type;
        y = g.nodes[next].outputs[0];
        next = r.sole(y);
      }
    }
    auto activation = next >= 0 && !removed[next] ? activation_of(g, g.nodes[next], y) : std::nullopt;
    if (activation && t == dtype::float64 && activation->kind != ops::fused::activation_kind::relu)
      activation.reset();
    if (activation) {
      chain.push_back(next);
      op_type += "+" + g.nodes[next].op_type;
      y = g.nodes[next].outputs[0];
    }
    if (chain.size() == 1) continue;
    auto attrs = std::make_shared<ops::fused::Conv::attributes>();
    static_cast<ops::detail::conv_attributes&>(*attrs) = *conv_attrs;
    if (activation) attrs->activation = *activation;
    node n;
    n.name = conv.name;
    n.op_type = op_type;
    n.domain = std::string(fused->domain);
    n.op = fused;
    n.attrs = std::move(attrs);
    // The Conv's attributes as loaded, and the activation as ops::fused::Conv
    // spells it, so the node parses back the same (a compact model).
    n.raw_attrs = conv.raw_attrs;
    if (activation) ops::fused::spell_activation(*activation, n.raw_attrs);
    n.inputs = conv.inputs;
    if (z >= 0) {
      n.inputs.resize(3, -1);  // B may be omitted
      n.inputs.push_back(z);
    }
    n.outputs = {y};
    // Without a residual the fused node stays at the Conv's place; with one,
    // at the Add's (after Z's producer).
    replace_chain(g, st, removed, chain, z >= 0 ? chain[1] : chain[0], std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
