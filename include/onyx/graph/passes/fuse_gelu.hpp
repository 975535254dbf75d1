// onyx/graph/passes/fuse_gelu.hpp: GELU written out in elementwise ops
// becomes one Gelu node.
//
//   erf form   x * (erf(x / sqrt 2) + 1) * 0.5       (torch.onnx.export of nn.GELU)
//              (x * 0.5) * (erf(x / sqrt 2) + 1)
//              the division may be a Mul by 1/sqrt 2
//   tanh form  (0.5 * x) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))   (GPT-2's gelu_new)
//              x * (1 + tanh(...)) * 0.5
//              x^3 as Pow(x, 3)
// Each Add and Mul may take its operands in either order; every value
// between x and the result must have one reader (x may have any number).
// The constants must be one-element float32/float16 values within 1e-5 of
// the exact ones. The Gelu node (ops::Gelu, approximate "none" or "tanh")
// takes the place of the last node, when a backend has a Gelu kernel for the
// type; the fused MatMul pass (fuse_matmul.hpp) may then move it into a
// GEMM epilogue. Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/erf.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/pow.hpp"
#include "onyx/ops/tanh.hpp"

namespace onyx::graph::passes {

namespace fuse_gelu_detail {

constexpr double tol = 1e-5;

/// Whether node k is `Op` with one input `id` and the other a scalar `c`.
template <class Op>
bool with_scalar(const graph& g, int k, int id, double c) {
  if (k < 0 || !match<Op>(g.nodes[k])) return false;
  const int o = other_input(g.nodes[k], id);
  return o >= 0 && is_scalar(g, o, c, tol);
}

}  // namespace fuse_gelu_detail

inline status fuse_gelu(graph& g, inferred& st, const op_table& ops) {
  using namespace fuse_gelu_detail;
  const op_info* gelu = find_op<ops::Gelu>(ops);
  if (!gelu) return ok();
  const readers r(g);
  const std::vector<int> producer = producers(g);
  const chain_walk w{g, r, producer};
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const node& t = g.nodes[k];
    const bool erf = match<ops::Erf>(t), tanh = match<ops::Tanh>(t);
    if (removed[k] || !(erf || tanh) || t.inputs.size() != 1 || t.outputs.size() != 1) continue;
    const int kt = static_cast<int>(k);
    std::vector<int> chain{kt};  // the nodes replaced
    int x = -1;
    const int pa = w.feeding(t.inputs[0], kt);
    if (pa < 0) continue;
    const node& arg = g.nodes[pa];
    if (erf) {
      // x / sqrt 2, or x * (1 / sqrt 2)
      if (match<ops::Div>(arg) && arg.inputs.size() == 2 && is_scalar(g, arg.inputs[1], 1.4142135623730951, tol))
        x = arg.inputs[0];
      else if (match<ops::Mul>(arg) && arg.inputs.size() == 2)
        for (int i : {0, 1})
          if (is_scalar(g, arg.inputs[1 - i], 0.7071067811865476, tol)) x = arg.inputs[i];
      if (x < 0) continue;
      chain.push_back(pa);
    } else {
      // sqrt(2/pi) * (x + 0.044715 * x^3)
      if (!match<ops::Mul>(arg) || arg.inputs.size() != 2) continue;
      int inner = -1;
      for (int i : {0, 1})
        if (is_scalar(g, arg.inputs[1 - i], 0.7978845608028654, tol)) inner = arg.inputs[i];
      const int ps = w.feeding(inner, pa);
      if (ps < 0 || !match<ops::Add>(g.nodes[ps]) || g.nodes[ps].inputs.size() != 2) continue;
      for (int i : {0, 1}) {
        const int cand = g.nodes[ps].inputs[i], pc = w.feeding(g.nodes[ps].inputs[1 - i], ps);
        if (pc < 0 || !match<ops::Mul>(g.nodes[pc]) || g.nodes[pc].inputs.size() != 2) continue;
        for (int j : {0, 1}) {
          const int pp = w.feeding(g.nodes[pc].inputs[j], pc);
          if (pp >= 0 && is_scalar(g, g.nodes[pc].inputs[1 - j], 0.044715, tol) && match<ops::Pow>(g.nodes[pp]) &&
              g.nodes[pp].inputs.size() == 2 && g.nodes[pp].inputs[0] == cand &&
              is_scalar(g, g.nodes[pp].inputs[1], 3.0, 0)) {
            x = cand;
            chain.insert(chain.end(), {pa, ps, pc, pp});
          }
        }
        if (x >= 0) break;
      }
      if (x < 0) continue;
    }
    // (f + 1), then x * that * 0.5 in one of two groupings.
    const int pone = w.next(kt);
    if (!with_scalar<ops::Add>(g, pone, t.outputs[0], 1.0)) continue;
    const int pm = w.next(pone);
    if (pm < 0 || !match<ops::Mul>(g.nodes[pm])) continue;
    const int factor = other_input(g.nodes[pm], g.nodes[pone].outputs[0]);
    int last = -1;
    if (factor == x) {  // (x * (f + 1)) * 0.5
      const int ph = w.next(pm);
      if (!with_scalar<ops::Mul>(g, ph, g.nodes[pm].outputs[0], 0.5)) continue;
      chain.insert(chain.end(), {pone, pm, ph});
      last = ph;
    } else {  // (x * 0.5) * (f + 1)
      const int ph = w.feeding(factor, pm);
      if (!with_scalar<ops::Mul>(g, ph, x, 0.5)) continue;
      chain.insert(chain.end(), {pone, ph, pm});
      last = pm;
    }
    if (!unclaimed(removed, chain)) continue;

    auto attrs = std::make_shared<ops::Gelu::attributes>();
    node n;
    n.name = g.nodes[last].name;
    n.op_type = tanh ? "Gelu(tanh)" : "Gelu";
    n.op = gelu;
    if (tanh) {
      attrs->approximate = "tanh";
      n.raw_attrs.push_back(attribute{"approximate", std::string("tanh")});
    }
    n.attrs = std::move(attrs);
    n.inputs = {x};
    n.outputs = g.nodes[last].outputs;
    replace_chain(g, st, removed, chain, last, std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
