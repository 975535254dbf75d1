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
// Then a following Relu, or Clip with constant bounds, turns the Conv into
// onyx.fused.Conv (the clamp runs in the GEMM epilogue), when the op table has
// that op with a kernel for the conv's dtype.
// Each absorbed node must be the only reader of the value before it (no other
// node, subgraph or graph output sees the intermediate), so no value anyone
// reads changes. Tested in test/unit/fuse_conv_test.cpp.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include "onyx/graph/infer.hpp"

namespace onyx::graph::passes {

namespace fuse_detail {

/// Readers of each value: nodes, subgraph captures and graph outputs; and,
/// when a node is the single reader, its index.
struct readers {
  std::vector<int> count, only;

  explicit readers(const graph& g) : count(g.values.size(), 0), only(g.values.size(), -1) {
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
      for (int id : g.nodes[k].inputs)
        if (id >= 0) ++count[id], only[id] = static_cast<int>(k);
      for (const auto& sg : g.nodes[k].subgraphs)
        for (int c : sg->captures)
          if (int outer = g.find(sg->values[c].name); outer >= 0) ++count[outer], only[outer] = -1;
    }
    for (int id : g.outputs) ++count[id], only[id] = -1;
  }
  /// The node that alone reads `id`, or -1.
  int sole(int id) const { return count[id] == 1 ? only[id] : -1; }
};

/// `n` is the default domain's `name` at its latest semantics (not, say,
/// Add_v1 with its axis attribute).
inline bool is(const node& n, std::string_view name) {
  return n.op && n.op->domain.empty() && n.op->name == name && n.op->until == ops::latest;
}

inline const attribute* find_attr(const node& n, std::string_view name) {
  for (const auto& a : n.raw_attrs)
    if (a.name == name) return &a;
  return nullptr;
}

inline double float_attr(const node& n, std::string_view name, double otherwise) {
  const attribute* a = find_attr(n, name);
  if (!a) return otherwise;
  if (auto* f = std::get_if<float>(&a->data)) return *f;
  if (auto* i = std::get_if<std::int64_t>(&a->data)) return static_cast<double>(*i);
  return otherwise;
}

inline std::int64_t int_attr(const node& n, std::string_view name, std::int64_t otherwise) {
  const attribute* a = find_attr(n, name);
  auto* i = a ? std::get_if<std::int64_t>(&a->data) : nullptr;
  return i ? *i : otherwise;
}

inline double element(const tensor& t, std::int64_t i) {
  return t.type() == dtype::float32 ? t.data<float>()[i] : t.data<double>()[i];
}

/// The constant `id` as M per-channel values for an output of rank `rank`
/// (channel axis 1), or empty when it is not constant, not of type `t`, or
/// broadcasts along another axis.
inline std::vector<double> per_channel(const graph& g, int id, dtype t, std::size_t rank, std::int64_t M) {
  if (id < 0 || !g.values[id].constant) return {};
  const tensor& c = *g.values[id].constant;
  if (c.type() != t || c.rank() > rank || c.size() < 1) return {};
  for (std::size_t j = 0; j < c.rank(); ++j) {
    const std::size_t axis = rank - c.rank() + j;
    if (c.dim(j) != 1 && !(axis == 1 && c.dim(j) == M)) return {};
  }
  std::vector<double> v(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) v[m] = element(c, c.size() == 1 ? 0 : m);
  return v;
}

/// A rank-1 constant of M values of type `t`, or empty.
inline std::vector<double> vector_of(const graph& g, int id, dtype t, std::int64_t M) {
  if (id < 0 || !g.values[id].constant) return {};
  const tensor& c = *g.values[id].constant;
  if (c.type() != t || c.rank() != 1 || c.dim(0) != M) return {};
  std::vector<double> v(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) v[m] = element(c, m);
  return v;
}

/// y -> a[m] y + b[m] per output channel.
struct affine {
  std::vector<double> a, b;
};

/// Composes `n` (reading `y`, the conv chain's current output) into `f`;
/// false when `n` is not a per-channel affine op of the right kind.
inline bool absorb(const graph& g, const node& n, int y, dtype t, std::size_t rank, affine& f) {
  const auto M = static_cast<std::int64_t>(f.a.size());
  if (is(n, "BatchNormalization")) {
    if (n.inputs.size() != 5 || n.inputs[0] != y || int_attr(n, "training_mode", 0) != 0 ||
        int_attr(n, "spatial", 1) != 1)
      return false;
    for (std::size_t i = 1; i < n.outputs.size(); ++i)
      if (n.outputs[i] >= 0) return false;
    auto scale = vector_of(g, n.inputs[1], t, M), beta = vector_of(g, n.inputs[2], t, M);
    auto mean = vector_of(g, n.inputs[3], t, M), var = vector_of(g, n.inputs[4], t, M);
    if (scale.empty() || beta.empty() || mean.empty() || var.empty()) return false;
    const double eps = float_attr(n, "epsilon", 1e-5);
    for (std::int64_t m = 0; m < M; ++m) {
      const double s = scale[m] / std::sqrt(var[m] + eps);
      f.a[m] *= s;
      f.b[m] = (f.b[m] - mean[m]) * s + beta[m];
    }
    return true;
  }
  const bool mul = is(n, "Mul"), div = is(n, "Div"), add = is(n, "Add"), sub = is(n, "Sub");
  if (!(mul || div || add || sub) || n.inputs.size() != 2 || n.outputs.size() != 1) return false;
  const int at = n.inputs[0] == y ? 0 : 1;  // y's position; the other input is the constant
  if ((div && at != 0) || n.inputs[at] != y) return false;
  auto c = per_channel(g, n.inputs[1 - at], t, rank, M);
  if (c.empty()) return false;
  for (std::int64_t m = 0; m < M; ++m) {
    if (mul) f.a[m] *= c[m], f.b[m] *= c[m];
    else if (div) f.a[m] /= c[m], f.b[m] /= c[m];
    else if (add) f.b[m] += c[m];
    else if (at == 0) f.b[m] -= c[m];
    else f.a[m] = -f.a[m], f.b[m] = c[m] - f.b[m];
  }
  return true;
}

/// The clamp bounds of a Relu or Clip reading `y`, if `n` is one with
/// constant bounds.
inline std::optional<std::pair<float, float>> clamp_of(const graph& g, const node& n, int y) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  if (n.inputs.empty() || n.inputs[0] != y || n.outputs.size() != 1) return std::nullopt;
  if (is(n, "Relu")) return std::pair{0.0f, inf};
  if (!is(n, "Clip")) return std::nullopt;
  float bound[2] = {-inf, inf};
  for (std::size_t i = 1; i < n.inputs.size() && i < 3; ++i) {
    int id = n.inputs[i];
    if (id < 0) continue;
    if (!g.values[id].constant || g.values[id].constant->size() != 1) return std::nullopt;
    const tensor& c = *g.values[id].constant;
    if (c.type() == dtype::float32) bound[i - 1] = c.data<float>()[0];
    else if (c.type() == dtype::float16) bound[i - 1] = to_float(c.data<float16_t>()[0]);
    else return std::nullopt;
  }
  return std::pair{bound[0], bound[1]};
}

/// Puts `fused` (its op, inputs, outputs and raw attributes set) in place of
/// `at` when some backend has a kernel for its type signature; returns false,
/// leaving `at` as it was, when none has.
inline result<bool> replace_if_kernel(node& at, node&& fused, const inferred& st) {
  const auto key = signature_of(fused, st).key();
  bool found = false;
  for (const auto& bk : fused.op->kernels) found = found || bk.find(key);
  if (!found) return false;
  ONYX_ASSIGN(fused.attrs, fused.op->parse(fused.raw_attrs));
  at = std::move(fused);
  return true;
}

/// Drops the nodes marked in `removed` (one flag per node), keeping order.
inline void erase_marked(graph& g, const std::vector<char>& removed) {
  std::vector<node> kept;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (!removed[k]) kept.push_back(std::move(g.nodes[k]));
  g.nodes = std::move(kept);
}

/// A new constant value holding `t`.
inline int add_constant(graph& g, inferred& st, std::string name, tensor t) {
  value_type type{value_kind::tensor, t.type(), sym_shape(t.shape())};
  int id = g.add_value(std::move(name), type);
  g.values[id].constant = t;
  st.types.push_back(type);
  st.known.push_back(std::move(t));
  return id;
}

/// W'[m] = a[m] W[m], B'[m] = a[m] B[m] + b[m].
template <class T> void scale_rows(const affine& f, const tensor* bias, tensor& w, tensor& b) {
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
  if (w.type() == dtype::float32) scale_rows<float>(f, bias, w2, b2);
  else scale_rows<double>(f, bias, w2, b2);
  int wid = add_constant(g, st, conv.name + "/folded_W", std::move(w2));
  int bid = add_constant(g, st, conv.name + "/folded_B", std::move(b2));
  conv.inputs.resize(3);
  conv.inputs[1] = wid;
  conv.inputs[2] = bid;
}

}  // namespace fuse_detail

inline status fuse_conv(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_detail;
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  const op_info* fused = ops.latest("onyx.fused", "Conv");
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& conv = g.nodes[k];
    if (removed[k] || !is(conv, "Conv") || conv.inputs.size() < 2 || conv.outputs.size() != 1 || conv.outputs[0] < 0)
      continue;
    const int w = conv.inputs[1];
    const dtype t = st.types[conv.outputs[0]].type;
    if (w < 0 || !g.values[w].constant || g.values[w].constant->rank() < 3 || !st.types[conv.outputs[0]].shape.rank_known)
      continue;
    const std::size_t rank = st.types[conv.outputs[0]].shape.rank();
    const std::int64_t M = g.values[w].constant->dim(0);

    // Per-channel affine ops (float32 and float64).
    const bool has_bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0;
    const bool foldable = (t == dtype::float32 || t == dtype::float64) && M > 0 &&
                          (!has_bias || vector_of(g, conv.inputs[2], t, M).size() == static_cast<std::size_t>(M));
    affine f{std::vector<double>(static_cast<std::size_t>(M), 1.0), std::vector<double>(static_cast<std::size_t>(M), 0.0)};
    bool folded = false;
    for (int next; foldable && (next = r.sole(conv.outputs[0])) >= 0;) {
      node& n = g.nodes[next];
      if (!absorb(g, n, conv.outputs[0], t, rank, f)) break;
      conv.outputs[0] = n.outputs[0];
      removed[next] = 1;
      folded = true;
    }
    if (folded) apply(g, st, conv, f);

    // A clamp after it: onyx.fused.Conv.
    const int next = r.sole(conv.outputs[0]);
    if (next < 0 || !fused) continue;
    const node& act = g.nodes[next];
    auto bounds = clamp_of(g, act, conv.outputs[0]);
    if (!bounds || (t == dtype::float64 && !is(act, "Relu"))) continue;
    node n;
    n.name = conv.name;
    n.op_type = "Conv+" + act.op_type;
    n.domain = std::string(fused->domain);
    n.op = fused;
    n.raw_attrs = conv.raw_attrs;
    n.raw_attrs.push_back({"activation", std::string(is(act, "Relu") ? "Relu" : "Clip")});
    n.raw_attrs.push_back({"activation_min", bounds->first});
    n.raw_attrs.push_back({"activation_max", bounds->second});
    n.inputs = conv.inputs;
    n.outputs = act.outputs;
    ONYX_ASSIGN(bool replaced, replace_if_kernel(conv, std::move(n), st));
    if (replaced) removed[next] = 1;
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
