// onyx/graph/passes/fuse_qdq.hpp: a QDQ model (the quantized format ORT's
// static quantizer and most exporters write: every quantized tensor is
// DequantizeLinear'd before a float op and its result QuantizeLinear'd) run in
// integer arithmetic.
//
//   Conv(DQ(xq), DQ(wq) [, DQ(bq) | b]) [-> Relu] -> Q(ys, yz)
//     -> QLinearConv(xq, xs, xz, wq, ws, wz, ys, yz, B)
//   Conv(DQ(xq), DQ(wq) [, DQ(bq) | b]) read in float (no Q after it)
//     -> onyx.fused.ConvIntegerToFloat(xq, wq, xs, ws, xz, wz, B float)
//   MatMul(DQ(aq), DQ(wq)) -> Q(ys, yz)
//     -> QLinearMatMul(aq, as, az, wq, ws, wz, ys, yz)
//   DQ(xq, s, z) -> op -> Q(s, z), op moving or selecting elements without
//   arithmetic (MaxPool, Reshape, Transpose, Flatten, Squeeze, Unsqueeze,
//   Slice, nearest Resize, Identity): op on xq itself
//   DQ(xq, s, z) -> Q(s, z): xq (a double QDQ pair)
//   Add, Mul, GlobalAveragePool, Concat of DQ'd values -> Q
//     -> QLinearAdd, QLinearMul, QLinearGlobalAveragePool, QLinearConcat
//   DQ(xq) -> elementwise float ops whose only varying input is x (a chain
//   such as Clip or HardSigmoid, or a DAG such as hardswish's
//   x * Clip(x + 3, 0, 6) / 6 with an affine step after it) -> Q
//     -> onyx.fused.QLinearLookup(xq, table): the ops' own kernels run once
//        on the 256 values xq can hold (one table per channel where a
//        constant operand varies along axis 1)
//
// Scales and zero points must be constants: per tensor for activations, per
// tensor or per output channel / column (the DQ's axis) for weights. The bias
// goes in as int32 at scale xs * ws[m] (rounded from its float value when the
// model's bias scale differs). A Relu or a Clip with constant bounds between
// the op and the Q is absorbed when its bounds hold every value the quantized
// output can represent (Relu: the zero point is the type's lowest value), so
// the saturation already clamps as it would.
// Each absorbed float op must have the next as its only reader; the DQ nodes
// stay for their other readers and go with remove_dead_nodes. The integer
// kernels accumulate exactly, so a result can differ from the float
// simulation by one quantization step where the float sum rounded across a
// .5 boundary (ORT's QDQ rewrites do the same). Fires only where the op table
// has a kernel for the integer node's types. Tested in test/unit/fuse_qdq_test.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/fused/conv_integer_to_float.hpp"
#include "onyx/ops/fused/qlinear_lookup.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/qlinear_add.hpp"
#include "onyx/ops/qlinear_concat.hpp"
#include "onyx/ops/qlinear_global_average_pool.hpp"
#include "onyx/ops/qlinear_mul.hpp"
#include "onyx/ops/dequantize_linear.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/qlinear_conv.hpp"
#include "onyx/ops/qlinear_mat_mul.hpp"
#include "onyx/ops/quantize_linear.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/resize.hpp"

namespace onyx::graph::passes {

namespace qdq {

/// One DequantizeLinear feeding a float op: node index and its inputs.
struct dequantized {
  int node = -1, q = -1, scale = -1, zero = -1;
  std::int64_t axis = 1;
};

inline std::optional<dequantized> dq_of(const graph& g, const std::vector<int>& prod, int id) {
  if (id < 0 || prod[id] < 0) return std::nullopt;
  const node& d = g.nodes[prod[id]];
  const auto* a = match<ops::DequantizeLinear>(d);
  if (!a || a->block_size != 0 || d.inputs.size() < 2 || d.inputs[0] < 0 || d.inputs[1] < 0) return std::nullopt;
  return dequantized{prod[id], d.inputs[0], d.inputs[1], d.inputs.size() > 2 ? d.inputs[2] : -1, a->axis};
}

inline bool is_8bit(dtype t) { return t == dtype::uint8 || t == dtype::int8; }

/// A constant float32 scale: its values (one, or one per index).
inline std::vector<float> scales(const graph& g, int id) {
  const tensor* t = constant_of(g, id);
  if (!t || t->type() != dtype::float32 || t->rank() > 1 || t->size() < 1) return {};
  return std::vector<float>(t->data<float>(), t->data<float>() + t->size());
}

/// A constant 8-bit zero point's values (`id` -1: absent, all 0 of `t`).
inline std::optional<std::vector<int>> zeros(const graph& g, int id, dtype t) {
  if (id < 0) return std::vector<int>{0};
  const tensor* z = constant_of(g, id);
  if (!z || z->type() != t || z->rank() > 1 || z->size() < 1) return std::nullopt;
  std::vector<int> v(static_cast<std::size_t>(z->size()));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = t == dtype::int8 ? z->data<std::int8_t>()[i] : z->data<std::uint8_t>()[i];
  return v;
}

/// Whether two constant scale / zero point pairs hold the same single values.
inline bool same_params(const graph& g, int s1, int z1, int s2, int z2, dtype t) {
  const auto a = scales(g, s1), b = scales(g, s2);
  const auto za = zeros(g, z1, t), zb = zeros(g, z2, t);
  return a.size() == 1 && b.size() == 1 && a == b && za && zb && za->size() == 1 && *za == *zb;
}

/// The type a QuantizeLinear node writes.
inline dtype q_type(const inferred& st, const node& q) {
  return q.outputs[0] >= 0 ? st.types[q.outputs[0]].type : dtype::undefined;
}

/// A zero point value id for a node input: `id` itself, or a new scalar 0 of `t`.
inline int zero_or_new(graph& g, inferred& st, int id, dtype t, const std::string& name) {
  if (id >= 0) return id;
  return add_constant(g, st, name, t == dtype::int8 ? tensor::scalar(std::int8_t(0)) : tensor::scalar(std::uint8_t(0)));
}

/// Ops that move or select elements without arithmetic: the same on the
/// quantized values as on the dequantized ones.
inline bool moves_only(const node& n) {
  if (!n.op || !n.op->domain.empty() || n.outputs.size() != 1) return false;
  static constexpr std::string_view names[] = {"MaxPool", "Reshape", "Transpose", "Flatten", "Squeeze",
                                               "Unsqueeze", "Slice", "Identity", "Resize"};
  bool listed = false;
  for (auto nm : names) listed = listed || n.op->name == nm;
  if (!listed) return false;
  if (n.op->name == "Resize") {
    const auto* a = match<ops::Resize>(n);
    return a && a->mode == "nearest";
  }
  return true;
}

/// A per-tensor 8-bit DQ: its scale and zero point constant single values.
inline bool per_tensor(const graph& g, const inferred& st, const dequantized& d) {
  const dtype t = st.types[d.q].type;
  const auto z = zeros(g, d.zero, t);
  return is_8bit(t) && scales(g, d.scale).size() == 1 && z && z->size() == 1;
}

/// A per-tensor 8-bit QuantizeLinear node: its output type, else undefined.
inline dtype per_tensor_q(const graph& g, const inferred& st, const node& q) {
  if (!match<ops::QuantizeLinear>(q) || q.inputs.size() < 2 || q.outputs.size() != 1 || q.outputs[0] < 0)
    return dtype::undefined;
  const dtype t = q_type(st, q);
  const auto z = zeros(g, q.inputs.size() > 2 ? q.inputs[2] : -1, t);
  return is_8bit(t) && scales(g, q.inputs[1]).size() == 1 && z && z->size() == 1 ? t : dtype::undefined;
}

/// Elementwise ops a lookup table may absorb: one varying input, the others
/// (if any) single constant values.
inline bool elementwise(const node& n) {
  if (!n.op || !n.op->domain.empty() || n.outputs.size() != 1 || !n.subgraphs.empty() || !n.op->deterministic)
    return false;
  static constexpr std::string_view names[] = {
      "Relu", "Clip", "HardSigmoid", "Sigmoid", "Tanh", "LeakyRelu", "HardSwish", "Elu", "Selu", "Softplus",
      "Softsign", "Exp", "Neg", "Abs", "Erf", "Gelu", "Mish", "Celu", "ThresholdedRelu", "Identity",
      "Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"};
  for (auto nm : names)
    if (n.op->name == nm) return true;
  return false;
}

/// The one input of `n` whose value is not known (constant), or -1 when
/// there is not exactly one.
inline int varying_input(const node& n, const inferred& st) {
  int varying = -1;
  for (int id : n.inputs) {
    if (id < 0) continue;
    if (st.known[id]) continue;
    if (varying >= 0) return -1;
    varying = id;
  }
  return varying;
}

/// The float ops a lookup table replaces before QuantizeLinear node `q`:
/// elementwise nodes (in graph order) reached backwards from q's input whose
/// varying inputs all lead to one per-tensor DequantizeLinear output x, each
/// value between them read only inside the region, every value keeping x's
/// shape. At most 32 nodes.
struct region {
  std::vector<int> nodes;
  dequantized x;
};
inline std::optional<region> lookup_region(const graph& g, const inferred& st, const readers& r,
                                           const std::vector<int>& prod, const node& q) {
  const int y = q.inputs[0];
  if (y < 0 || r.count[y] != 1 || prod[y] < 0) return std::nullopt;
  std::vector<int> todo{prod[y]}, nodes;
  std::optional<dequantized> x;
  while (!todo.empty()) {
    const int k = todo.back();
    todo.pop_back();
    if (std::find(nodes.begin(), nodes.end(), k) != nodes.end()) continue;
    const node& n = g.nodes[k];
    if (!elementwise(n) || n.outputs[0] < 0 || st.types[n.outputs[0]].type != dtype::float32 || nodes.size() == 32)
      return std::nullopt;
    nodes.push_back(k);
    for (int id : n.inputs) {
      if (id < 0 || st.known[id]) continue;
      if (const auto d = dq_of(g, prod, id)) {
        if (x && x->q != d->q) return std::nullopt;
        x = d;
      } else if (prod[id] >= 0) {
        todo.push_back(prod[id]);
      } else {
        return std::nullopt;  // a graph input
      }
    }
  }
  if (!x || !per_tensor(g, st, *x)) return std::nullopt;
  std::sort(nodes.begin(), nodes.end());
  const std::string shape = st.types[x->q].shape.str();
  for (int k : nodes) {
    const int out = g.nodes[k].outputs[0];
    if (st.types[out].shape.str() != shape) return std::nullopt;
    if (out == y) continue;
    int inside = 0;  // reads of `out` by the region
    for (int c : nodes)
      for (int id : g.nodes[c].inputs) inside += id == out;
    if (r.count[out] != inside) return std::nullopt;
  }
  return region{std::move(nodes), *x};
}

}  // namespace qdq

/// Runs node `n` alone on `ins` (its inputs in order, null where omitted) with
/// one output of type `out` and shape `shape`: the table builder.
inline result<tensor> run_alone(const node& n, const std::vector<const tensor*>& ins, dtype out,
                                const evaluate_fn& evaluate, const extents& shape) {
  node m = n;
  inferred tmp;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    m.inputs[i] = n.inputs[i] < 0 ? -1 : static_cast<int>(i);
    tmp.types.push_back(ins[i] ? value_type{value_kind::tensor, ins[i]->type(), sym_shape(ins[i]->shape())}
                               : value_type{});
  }
  m.outputs = {static_cast<int>(ins.size())};
  tmp.types.push_back(value_type{value_kind::tensor, out, sym_shape(shape)});
  tmp.known.resize(tmp.types.size());
  ONYX_ASSIGN(auto outs, evaluate(m, ins, tmp));
  if (outs.empty() || outs[0].size() != element_count(shape)) return status(errc::internal, "table step changed the shape");
  return std::move(outs[0]);
}

inline status fuse_qdq(graph& g, inferred& st, const op_table& ops, const evaluate_fn& evaluate) {
  const op_info* qconv = find_op<ops::QLinearConv>(ops);
  const op_info* qmatmul = find_op<ops::QLinearMatMul>(ops);
  const op_info* qadd = find_op<ops::QLinearAdd>(ops);
  const op_info* qmul = find_op<ops::QLinearMul>(ops);
  const op_info* qgap = find_op<ops::QLinearGlobalAveragePool>(ops);
  const op_info* qconcat = find_op<ops::QLinearConcat>(ops);
  const op_info* qlookup = find_op<ops::fused::QLinearLookup>(ops);
  const op_info* conv_float = find_op<ops::fused::ConvIntegerToFloat>(ops);
  const readers r(g);
  const std::vector<int> prod = producers(g);
  const chain_walk walk{g, r, prod};
  std::vector<char> removed(g.nodes.size(), 0);
  // readers of a value that a rewrite replaced by another: renamed at the end
  std::vector<std::pair<int, int>> renamed;
  bool subgraphs = false;  // a capture by name would miss a rename: no DQ -> Q removal then
  for (const auto& n : g.nodes) subgraphs = subgraphs || !n.subgraphs.empty();

  // A Conv's bias (input `id`, `count` values) in float: DQ'd int32 (zero
  // point 0) or a float constant; nothing when it is neither.
  const auto conv_bias = [&](int id, std::int64_t count) -> std::optional<std::vector<double>> {
    std::vector<double> b(static_cast<std::size_t>(count));
    if (const auto db = qdq::dq_of(g, prod, id)) {
      const tensor* bq = constant_of(g, db->q);
      const auto bs = qdq::scales(g, db->scale);
      const tensor* bz = constant_of(g, db->zero);
      bool zero_free = db->zero < 0 || (bz && bz->type() == dtype::int32);
      for (std::int64_t i = 0; zero_free && bz && i < bz->size(); ++i) zero_free = bz->data<std::int32_t>()[i] == 0;
      if (!bq || bq->type() != dtype::int32 || bq->size() != count || bs.empty() ||
          (bs.size() != 1 && static_cast<std::int64_t>(bs.size()) != count) || !zero_free)
        return std::nullopt;
      for (std::int64_t m = 0; m < count; ++m)
        b[m] = static_cast<double>(bq->data<std::int32_t>()[m]) * bs[bs.size() == 1 ? 0 : m];
    } else {
      const tensor* bf = constant_of(g, id);
      if (!bf || bf->type() != dtype::float32 || bf->size() != count) return std::nullopt;
      for (std::int64_t m = 0; m < count; ++m) b[m] = bf->data<float>()[m];
    }
    return b;
  };
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    if (removed[k]) continue;
    node& op = g.nodes[k];
    const auto* conv = qconv ? match<ops::Conv>(op) : nullptr;
    const bool mm = qmatmul && match<ops::MatMul>(op) && op.inputs.size() == 2;
    if ((conv || mm) && op.outputs.size() == 1 && op.outputs[0] >= 0) {
      const auto dx = qdq::dq_of(g, prod, op.inputs[0]);
      const auto dw = qdq::dq_of(g, prod, op.inputs[1]);
      if (!dx || !dw) continue;
      const tensor* wq = constant_of(g, dw->q);
      const dtype xt = st.types[dx->q].type;
      if (!wq || !qdq::is_8bit(wq->type()) || !qdq::is_8bit(xt) || (mm && wq->rank() != 2) || (conv && wq->rank() < 3))
        continue;
      const std::int64_t count = mm ? wq->dim(1) : wq->dim(0);
      const std::int64_t w_axis = mm ? 1 : 0;
      const auto xs = qdq::scales(g, dx->scale);
      const auto xz = qdq::zeros(g, dx->zero, xt);
      const auto ws = qdq::scales(g, dw->scale);
      const auto wz = qdq::zeros(g, dw->zero, wq->type());
      if (xs.size() != 1 || !xz || xz->size() != 1 || ws.empty() || !wz) continue;
      if ((ws.size() != 1 && (static_cast<std::int64_t>(ws.size()) != count || dw->axis != w_axis)) ||
          (wz->size() != 1 && static_cast<std::int64_t>(wz->size()) != count))
        continue;
      // [Relu ->] QuantizeLinear, each the only reader of what it reads.
      std::vector<int> chain{static_cast<int>(k)};
      int next = walk.next(static_cast<int>(k));
      int relu = -1;  // a Relu or Clip between the op and the Q
      float clip_lo = 0.0f, clip_hi = INFINITY;
      if (next >= 0 && match<ops::Relu>(g.nodes[next])) {
        relu = next, next = walk.next(next);
      } else if (next >= 0 && match<ops::Clip>(g.nodes[next])) {
        const node& cl = g.nodes[next];
        const auto lo = cl.inputs.size() > 1 && cl.inputs[1] >= 0 ? float_scalar_of(g, cl.inputs[1]) : std::optional<float>(-INFINITY);
        const auto hi = cl.inputs.size() > 2 && cl.inputs[2] >= 0 ? float_scalar_of(g, cl.inputs[2]) : std::optional<float>(INFINITY);
        if (lo && hi) clip_lo = *lo, clip_hi = *hi, relu = next, next = walk.next(next);
      }
      if (next < 0 || !match<ops::QuantizeLinear>(g.nodes[next]) || g.nodes[next].inputs.size() < 2) {
        // Read in float (an elementwise region onyx-quantize left in float,
        // a graph output): the int8 convolution with a float epilogue.
        if (!conv || !conv_float || st.types[op.outputs[0]].type != dtype::float32) continue;
        int bias_f = -1;
        if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
          const auto b = conv_bias(op.inputs[2], count);
          if (!b) continue;
          std::vector<float> bf(b->begin(), b->end());
          bias_f = add_constant(g, st, op.name + "/bias_f", tensor::from(std::span<const float>(bf), {count}));
        }
        node n;
        n.name = op.name;
        n.op_type = std::string(ops::fused::ConvIntegerToFloat::name);
        n.op = conv_float;
        n.domain = std::string(n.op->domain);
        n.attrs = std::make_shared<ops::fused::ConvIntegerToFloat::attributes>(*conv);
        n.raw_attrs = op.raw_attrs;
        n.inputs = {dx->q, dw->q, dx->scale, dw->scale, qdq::zero_or_new(g, st, dx->zero, xt, op.name + "/x_zero_point"),
                    qdq::zero_or_new(g, st, dw->zero, wq->type(), op.name + "/w_zero_point"), bias_f};
        n.outputs = {op.outputs[0]};
        replace_chain(g, st, removed, {static_cast<int>(k)}, static_cast<int>(k), std::move(n));
        continue;
      }
      const node& q = g.nodes[next];
      const dtype yt = qdq::q_type(st, q);
      const auto ys = qdq::scales(g, q.inputs[1]);
      const auto yz = qdq::zeros(g, q.inputs.size() > 2 ? q.inputs[2] : -1, yt);
      if (!qdq::is_8bit(yt) || ys.size() != 1 || !yz || yz->size() != 1) continue;
      if (relu >= 0) {
        // absorbed only where the output's range already clamps as tightly:
        // [lo, hi] covers every value the quantized output can represent
        const double qmin = yt == dtype::int8 ? -128 : 0, qmax = yt == dtype::int8 ? 127 : 255;
        const double rep_lo = (qmin - (*yz)[0]) * static_cast<double>(ys[0]);
        const double rep_hi = (qmax - (*yz)[0]) * static_cast<double>(ys[0]);
        if (!(clip_lo <= rep_lo && clip_hi >= rep_hi)) continue;
        chain.push_back(relu);
      }
      chain.push_back(next);
      if (!unclaimed(removed, chain)) continue;
      // The bias as int32 at scale xs * ws[m].
      int bias = -1;
      if (conv && op.inputs.size() > 2 && op.inputs[2] >= 0) {
        const auto b = conv_bias(op.inputs[2], count);
        if (!b) continue;
        std::vector<std::int32_t> bi(static_cast<std::size_t>(count));
        for (std::int64_t m = 0; m < count; ++m) {
          const double s = static_cast<double>(xs[0] * ws[ws.size() == 1 ? 0 : m]);
          bi[m] = static_cast<std::int32_t>(std::clamp(std::nearbyint((*b)[m] / s), -2147483648.0, 2147483647.0));
        }
        bias = add_constant(g, st, op.name + "/bias_q", tensor::from(std::span<const std::int32_t>(bi), {count}));
      }
      node n;
      n.name = op.name;
      n.op_type = "QLinear" + op.op_type;
      n.op = conv ? qconv : qmatmul;
      n.domain = std::string(n.op->domain);
      if (conv) {
        n.attrs = std::make_shared<ops::QLinearConv::attributes>(*conv);
        n.raw_attrs = op.raw_attrs;
      } else {
        n.attrs = std::make_shared<ops::QLinearMatMul::attributes>();
      }
      const int xz_id = qdq::zero_or_new(g, st, dx->zero, xt, op.name + "/x_zero_point");
      const int wz_id = qdq::zero_or_new(g, st, dw->zero, wq->type(), op.name + "/w_zero_point");
      const int yz_id = qdq::zero_or_new(g, st, q.inputs.size() > 2 ? q.inputs[2] : -1, yt, op.name + "/y_zero_point");
      n.inputs = {dx->q, dx->scale, xz_id, dw->q, dw->scale, wz_id, q.inputs[1], yz_id};
      if (bias >= 0) n.inputs.push_back(bias);
      n.outputs = {q.outputs[0]};
      replace_chain(g, st, removed, chain, chain.back(), std::move(n));
      continue;
    }

    // Add / Mul of two per-tensor DQs -> Q: QLinearAdd / QLinearMul;
    // GlobalAveragePool: QLinearGlobalAveragePool; Concat of DQs: QLinearConcat.
    {
      const bool add = qadd && match<ops::Add>(op), mul = qmul && match<ops::Mul>(op);
      const bool gap = qgap && match<ops::GlobalAveragePool>(op);
      const auto* cat = qconcat ? match<ops::Concat>(op) : nullptr;
      if ((((add || mul) && op.inputs.size() == 2) || (gap && op.inputs.size() == 1) || (cat && !op.inputs.empty())) &&
          op.outputs.size() == 1 && op.outputs[0] >= 0) {
        std::vector<qdq::dequantized> ins;
        bool fits = true;
        for (int id : op.inputs) {
          const auto d = qdq::dq_of(g, prod, id);
          fits = fits && d && qdq::per_tensor(g, st, *d) && (cat || !st.known[id]);  // a constant operand: a table
          if (fits) ins.push_back(*d);
        }
        const int next = walk.next(static_cast<int>(k));
        const dtype yt = next >= 0 ? qdq::per_tensor_q(g, st, g.nodes[next]) : dtype::undefined;
        for (const auto& d : ins) fits = fits && st.types[d.q].type == yt;
        if (fits && yt != dtype::undefined && unclaimed(removed, {static_cast<int>(k), next})) {
          const node& q = g.nodes[next];
          node n;
          n.name = op.name;
          n.op_type = "QLinear" + op.op_type;
          n.op = add ? qadd : mul ? qmul : gap ? qgap : qconcat;
          n.domain = std::string(n.op->domain);
          const auto zero_of = [&](const qdq::dequantized& d, const std::string& nm) {
            return qdq::zero_or_new(g, st, d.zero, st.types[d.q].type, op.name + nm);
          };
          const int yz = qdq::zero_or_new(g, st, q.inputs.size() > 2 ? q.inputs[2] : -1, yt, op.name + "/y_zero_point");
          if (add || mul) {
            n.attrs = add ? std::shared_ptr<void>(std::make_shared<ops::QLinearAdd::attributes>())
                          : std::shared_ptr<void>(std::make_shared<ops::QLinearMul::attributes>());
            n.inputs = {ins[0].q, ins[0].scale, zero_of(ins[0], "/a_zero_point"), ins[1].q, ins[1].scale,
                        zero_of(ins[1], "/b_zero_point"), q.inputs[1], yz};
          } else if (gap) {
            n.attrs = std::make_shared<ops::QLinearGlobalAveragePool::attributes>();
            n.inputs = {ins[0].q, ins[0].scale, zero_of(ins[0], "/x_zero_point"), q.inputs[1], yz};
          } else {
            auto a = std::make_shared<ops::QLinearConcat::attributes>();
            a->axis = cat->axis;
            n.attrs = a;
            n.raw_attrs = op.raw_attrs;
            n.inputs = {q.inputs[1], yz};
            for (std::size_t i = 0; i < ins.size(); ++i)
              n.inputs.insert(n.inputs.end(), {ins[i].q, ins[i].scale, zero_of(ins[i], "/x_zero_point_" + std::to_string(i))});
          }
          n.outputs = {q.outputs[0]};
          replace_chain(g, st, removed, {static_cast<int>(k), next}, next, std::move(n));
          continue;
        }
      }
    }

    // DQ -> elementwise float ops -> Q, all per tensor: one lookup table,
    // computed by running the ops' own kernels on the 256 values x can hold.
    // The ops form a region read from one DQ'd value x (a chain such as
    // Clip, or a DAG such as hardswish's x * Clip(x + 3, 0, 6) / 6), found
    // backwards from the Q.
    if (qlookup && match<ops::QuantizeLinear>(op) && op.inputs.size() >= 2) {
      const dtype yt = qdq::per_tensor_q(g, st, op);
      const auto region = yt == dtype::undefined ? std::nullopt : qdq::lookup_region(g, st, r, prod, op);
      if (region && unclaimed(removed, region->nodes)) {
        const auto& dx = region->x;
        std::vector<int> chain = region->nodes;
        chain.push_back(static_cast<int>(k));
        // A constant operand that is not a single value must vary along the
        // channel axis (1) only: then one table per channel, x laid out as
        // [1, C, 256, 1...] (x's rank).
        const sym_shape& xs = st.types[dx.q].shape;
        bool per_channel = false;
        for (int c : region->nodes)
          for (int id : g.nodes[c].inputs)
            if (id >= 0 && st.known[id] && st.known[id]->size() > 1) per_channel = true;
        const std::int64_t channels = per_channel && xs.rank_known && xs.rank() >= 3 && xs[1].known() ? xs[1].value() : 1;
        extents eval_shape{256};
        if (per_channel) {
          eval_shape.assign(xs.rank_known ? xs.rank() : 0, 1);
          if (eval_shape.size() >= 3) eval_shape[1] = channels, eval_shape[2] = 256;
        }
        tensor v = tensor::zeros(st.types[dx.q].type, eval_shape);
        for (std::int64_t i = 0; i < v.size(); ++i) static_cast<std::uint8_t*>(v.raw())[i] = static_cast<std::uint8_t>(i % 256);
        // Each value of the region as computed on the 256 inputs, by id.
        std::map<int, tensor> at;
        auto step = [&](const node& n, dtype out) -> status {
          std::vector<const tensor*> ins;
          for (int id : n.inputs)
            ins.push_back(id < 0 ? nullptr : at.count(id) ? &at.at(id) : st.known[id] ? &*st.known[id] : nullptr);
          ONYX_ASSIGN(tensor t, run_alone(n, ins, out, evaluate, eval_shape));
          at.insert_or_assign(n.outputs[0], std::move(t));
          return ok();
        };
        at.emplace(dx.q, std::move(v));
        status done = step(g.nodes[dx.node], dtype::float32);
        for (std::size_t c = 0; done.ok() && c < chain.size(); ++c)
          done = step(g.nodes[chain[c]], c + 1 == chain.size() ? yt : dtype::float32);
        if (done.ok() && per_channel && (eval_shape.size() < 3 || at.at(op.outputs[0]).shape() != eval_shape))
          done = status(errc::internal, "a constant operand is not per channel");
        if (done.ok()) {
          tensor table = std::move(at.at(op.outputs[0]));
          if (per_channel) table = table.reshaped({channels, 256});
          node n;
          n.name = g.nodes[region->nodes.front()].name;
          n.op_type = "QLinearLookup";
          n.op = qlookup;
          n.domain = std::string(qlookup->domain);
          n.attrs = std::make_shared<ops::fused::QLinearLookup::attributes>();
          n.inputs = {dx.q, add_constant(g, st, n.name + "/table", std::move(table))};
          n.outputs = {op.outputs[0]};
          if (replace_chain(g, st, removed, chain, static_cast<int>(k), std::move(n))) continue;
        }
      }
    }

    // DQ -> element-moving op -> Q with the same parameters: the op on the
    // quantized values. DQ -> Q with the same parameters: the quantized input.
    const bool direct_q = match<ops::QuantizeLinear>(op) != nullptr;
    if (!direct_q && !qdq::moves_only(op)) continue;
    const auto dx = qdq::dq_of(g, prod, op.inputs.empty() ? -1 : op.inputs[0]);
    if (!dx) continue;
    const dtype xt = st.types[dx->q].type;
    if (!qdq::is_8bit(xt)) continue;
    if (direct_q) {
      if (op.inputs.size() < 2 || op.outputs.size() != 1 || op.outputs[0] < 0 || qdq::q_type(st, op) != xt ||
          !qdq::same_params(g, dx->scale, dx->zero, op.inputs[1], op.inputs.size() > 2 ? op.inputs[2] : -1, xt))
        continue;
      // Q's readers read xq instead; Q goes (a graph output keeps it).
      bool output = subgraphs;
      for (int o : g.outputs) output = output || o == op.outputs[0];
      if (output) continue;
      renamed.emplace_back(op.outputs[0], dx->q);
      removed[k] = 1;
      continue;
    }
    const int next = walk.next(static_cast<int>(k));
    if (next < 0 || removed[next] || !match<ops::QuantizeLinear>(g.nodes[next])) continue;
    const node& q = g.nodes[next];
    if (q.inputs.size() < 2 || qdq::q_type(st, q) != xt ||
        !qdq::same_params(g, dx->scale, dx->zero, q.inputs[1], q.inputs.size() > 2 ? q.inputs[2] : -1, xt))
      continue;
    node n = op;
    n.inputs[0] = dx->q;
    n.outputs = {q.outputs[0]};
    const std::vector<int> chain{static_cast<int>(k), next};
    replace_chain(g, st, removed, chain, next, std::move(n));
  }
  if (!renamed.empty())
    for (auto& n : g.nodes)
      for (int& id : n.inputs)
        for (auto [from, to] : renamed)
          if (id == from) id = to;
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
