// onyx/graph/passes/fuse_elementwise.hpp: a region of float32 elementwise ops
// computed from one value x into onyx.fused.Elementwise, one pass over x.
//
// The region is found backwards from its last node: Add, Sub, Mul, Div, Max
// and Min of two inputs, Relu, Clip with one-value constant bounds,
// LeakyRelu, HardSigmoid, HardSwish, Sigmoid, Tanh, Neg and Abs, whose
// varying inputs all lead, through other such nodes, to the same value x,
// every value between them read only inside the region and of x's shape (no
// broadcasting between varying values), and whose constant operands are one
// value or one per channel of x (axis 1). Two nodes at least, 32 at most (E::max_steps):
// a hardswish written out as x * Clip(x + 3, 0, 6) / 6 and the affine step
// after it (PP-LCNet, the backbone of PP-OCRv4), x * Sigmoid(x). Runs after
// the passes that fuse such ops into something better (Gelu, LayerNorm, a
// Conv's epilogue, a quantized lookup table), so it takes what they left.
// The fused kernel computes each step as the op's own kernel does: outputs
// are bit for bit the same. Fires only when the op table has the op.
// Tested in test/unit/fuse_elementwise_test.cpp.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/abs.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/fused/elementwise.hpp"
#include "onyx/ops/hard_sigmoid.hpp"
#include "onyx/ops/hard_swish.hpp"
#include "onyx/ops/leaky_relu.hpp"
#include "onyx/ops/max.hpp"
#include "onyx/ops/min.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/neg.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/sigmoid.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/tanh.hpp"

namespace onyx::graph::passes {

namespace fuse_elementwise_detail {

using E = ops::fused::Elementwise;

/// The step `n` is, without its operands, or nothing when it is not a region op.
inline std::optional<E::step> step_of(const node& n) {
  E::step s;
  if (match<ops::Add>(n)) s.what = E::op::add;
  else if (match<ops::Sub>(n)) s.what = E::op::sub;
  else if (match<ops::Mul>(n)) s.what = E::op::mul;
  else if (match<ops::Div>(n)) s.what = E::op::div;
  else if (match<ops::Max>(n) && n.inputs.size() == 2) s.what = E::op::max;
  else if (match<ops::Min>(n) && n.inputs.size() == 2) s.what = E::op::min;
  else if (match<ops::Relu>(n)) s.what = E::op::relu;
  else if (match<ops::Clip>(n)) s.what = E::op::clip;
  else if (const auto* a = match<ops::LeakyRelu>(n)) s.what = E::op::leaky_relu, s.alpha = a->alpha;
  else if (const auto* h = match<ops::HardSigmoid>(n)) s.what = E::op::hard_sigmoid, s.alpha = h->alpha, s.beta = h->beta;
  else if (match<ops::HardSwish>(n)) s.what = E::op::hard_swish;
  else if (match<ops::Sigmoid>(n)) s.what = E::op::sigmoid;
  else if (match<ops::Tanh>(n)) s.what = E::op::tanh;
  else if (match<ops::Neg>(n)) s.what = E::op::neg;
  else if (match<ops::Abs>(n)) s.what = E::op::abs;
  else return std::nullopt;
  if (n.outputs.size() != 1 || n.outputs[0] < 0 || !n.subgraphs.empty()) return std::nullopt;
  return s;
}

/// Whether float32 constant `id` is one value, or one per channel of a value
/// of shape `x` (rewrite.hpp's per_channel).
inline bool fits(const graph& g, int id, const tensor& c, const sym_shape& x) {
  if (c.type() != dtype::float32) return false;
  if (c.size() == 1) return true;
  return x.rank_known && x.rank() >= 2 && x[1].known() &&
         !per_channel(g, id, dtype::float32, x.rank(), x[1].value()).empty();
}

}  // namespace fuse_elementwise_detail

inline status fuse_elementwise(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_elementwise_detail;
  const op_info* fused = find_op<E>(ops);
  if (!fused) return ok();
  const readers r(g);
  const auto prod = producers(g);
  std::vector<char> removed(g.nodes.size(), 0);
  auto region_node = [&](int k) {
    const node& n = g.nodes[k];
    return !removed[k] && step_of(n) && st.types[n.outputs[0]].type == dtype::float32 && !st.known[n.outputs[0]];
  };
  for (int last = static_cast<int>(g.nodes.size()) - 1; last >= 0; --last) {
    if (!region_node(last)) continue;
    const std::string shape = st.types[g.nodes[last].outputs[0]].shape.str();
    // Backwards from `last`: every varying input produced by a region node
    // of the same shape joins; any other varying input is a source.
    std::vector<int> nodes, todo{last};
    std::vector<int> sources;
    bool fail = false;
    while (!todo.empty() && !fail) {
      const int k = todo.back();
      todo.pop_back();
      if (std::find(nodes.begin(), nodes.end(), k) != nodes.end()) continue;
      nodes.push_back(k);
      fail = nodes.size() > E::max_steps;
      for (int id : g.nodes[k].inputs) {
        if (id < 0 || st.known[id]) continue;
        const int p = prod[id];
        if (p >= 0 && region_node(p) && st.types[id].shape.str() == shape) todo.push_back(p);
        else if (std::find(sources.begin(), sources.end(), id) == sources.end()) sources.push_back(id);
      }
    }
    if (fail || nodes.size() < 2 || sources.size() != 1) continue;
    const int x = sources[0];
    if (st.types[x].type != dtype::float32 || st.types[x].shape.str() != shape) continue;
    std::sort(nodes.begin(), nodes.end());  // graph order is topological
    // Every value but the last is read inside the region only.
    for (int k : nodes) {
      const int out = g.nodes[k].outputs[0];
      if (k == last) continue;
      int inside = 0;
      for (int c : nodes)
        for (int id : g.nodes[c].inputs) inside += id == out;
      fail = fail || r.count[out] != inside;
    }
    if (fail) continue;
    // The program: value 0 is x, value j + 1 node j's output; constants by id.
    std::map<int, std::int64_t> slot{{x, 0}};
    std::vector<int> constants;
    node n;
    n.inputs = {x};
    std::vector<std::string> spelled_steps;
    std::vector<std::int64_t> operands;
    std::vector<float> alphas, betas;
    for (std::size_t j = 0; j < nodes.size() && !fail; ++j) {
      const node& m = g.nodes[nodes[j]];
      E::step s = *step_of(m);
      const int arity = E::binary(s.what) ? 2 : s.what == E::op::clip ? 3 : 1;
      fail = static_cast<int>(m.inputs.size()) > arity || (arity == 2 && m.inputs.size() != 2);
      for (int i = 0; i < arity && !fail; ++i) {
        const int id = i < static_cast<int>(m.inputs.size()) ? m.inputs[i] : -1;
        std::int64_t v = E::absent;
        if (id >= 0 && st.known[id]) {
          // A constant: one value (Clip's bounds must be), or one per channel.
          const tensor& c = *st.known[id];
          fail = !fits(g, id, c, st.types[x].shape) || (s.what == E::op::clip && c.size() != 1);
          auto at = std::find(constants.begin(), constants.end(), id);
          if (at == constants.end()) at = constants.insert(constants.end(), id);
          v = -1 - (at - constants.begin());
        } else if (id >= 0) {
          fail = !slot.count(id) || (s.what == E::op::clip && i > 0);
          if (!fail) v = slot.at(id);
        } else {
          fail = i == 0 || arity == 2;
        }
        operands.push_back(v);
      }
      for (int i = arity; i < 3; ++i) operands.push_back(E::absent);
      spelled_steps.push_back(std::string(E::spellings[static_cast<std::size_t>(s.what)]));
      alphas.push_back(s.alpha);
      betas.push_back(s.beta);
      slot[m.outputs[0]] = static_cast<std::int64_t>(j + 1);
    }
    if (fail) continue;
    for (int id : constants) n.inputs.push_back(id);
    n.name = g.nodes[last].name;
    n.op_type = std::string(E::name);
    n.domain = std::string(E::domain);
    n.op = fused;
    n.raw_attrs = {attribute{"steps", spelled_steps}, attribute{"operands", operands}, attribute{"alphas", alphas},
                   attribute{"betas", betas}};
    auto parsed = E::parse(n.raw_attrs);
    if (!parsed.ok()) return std::move(parsed).error().with_context("fuse_elementwise at " + g.nodes[last].label());
    n.attrs = std::make_shared<E::attributes>(std::move(parsed).value());
    n.outputs = {g.nodes[last].outputs[0]};
    replace_chain(g, st, removed, nodes, last, std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
