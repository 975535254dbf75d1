// onyx/graph/passes/fuse_matmul.hpp: a MatMul against a constant matrix
// absorbs the bias Add and the Gelu after it.
//
//   MatMul(A, W) [+ b] [-> Gelu]  ->  onyx.fused.MatMul(A, W, b), activation none / Gelu / GeluTanh
// W a float32 constant of rank 2 ([K, N]); b a float32 constant holding N
// values along the last axis (any leading 1s, so the Add does not change the
// product's shape); A of rank >= 2. At least one of the two is absorbed, each
// only when the value before it has that node as its single reader. The
// fused kernel packs W once and applies b and GELU to each finished GEMM
// tile, saving the passes over memory that the Add and the Gelu made. Runs
// after fuse_gemm, which turns a rank-2 MatMul + bias into a Gemm (with its
// one-row GEMV path), so this pass sees the transformer's [batch, seq, hidden]
// products. Fires only when the op table has onyx.fused.MatMul with a kernel
// for the type. Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::graph::passes {

inline status fuse_matmul(graph& g, inferred& st, const op_table& ops) {
  const op_info* fused = find_op<ops::fused::MatMul>(ops);
  if (!fused) return ok();
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& mm = g.nodes[k];
    if (removed[k] || !match<ops::MatMul>(mm) || mm.inputs.size() != 2 || mm.outputs.size() != 1) continue;
    const int a = mm.inputs[0], w = mm.inputs[1], y = mm.outputs[0];
    const tensor* wt = constant_of(g, w);
    if (a < 0 || y < 0 || !wt || wt->rank() != 2 || wt->type() != dtype::float32 ||
        st.types[a].type != dtype::float32 || !st.types[a].shape.rank_known || st.types[a].shape.rank() < 2)
      continue;
    const std::int64_t N = wt->dim(1);

    int out = y, bias = -1, next = r.sole(y);
    std::vector<int> absorbed;
    if (next >= 0 && match<ops::Add>(g.nodes[next]) && !removed[next]) {
      const int c = other_input(g.nodes[next], y);
      const tensor* ct = constant_of(g, c);
      bool fits = ct && ct->type() == dtype::float32 && ct->rank() >= 1 && ct->dim(ct->rank() - 1) == N &&
                  ct->size() == N && ct->rank() <= st.types[a].shape.rank();
      if (fits) {
        bias = ct->rank() == 1
                   ? c
                   : add_constant(
                         g, st, mm.name + "/bias",
                         tensor::from(std::span<const float>(ct->data<float>(), static_cast<std::size_t>(N)), {N}));
        absorbed.push_back(next);
        out = g.nodes[next].outputs[0];
        next = out >= 0 ? r.sole(out) : -1;
      }
    }
    auto then = ops::fused::MatMul::function::none;
    if (next >= 0 && !removed[next]) {
      if (const auto* ga = match<ops::Gelu>(g.nodes[next]); ga && g.nodes[next].inputs[0] == out) {
        then = ga->approximate == "tanh" ? ops::fused::MatMul::function::gelu_tanh : ops::fused::MatMul::function::gelu;
        absorbed.push_back(next);
        out = g.nodes[next].outputs[0];
      }
    }
    if (absorbed.empty()) continue;

    node n;
    n.name = mm.name;
    n.op_type = "MatMul";
    for (int j : absorbed) n.op_type += "+" + g.nodes[j].op_type;
    n.domain = std::string(fused->domain);
    n.op = fused;
    n.attrs = std::make_shared<ops::fused::MatMul::attributes>(ops::fused::MatMul::attributes{then});
    if (then != ops::fused::MatMul::function::none)
      n.raw_attrs.push_back(attribute{"activation", std::string(ops::fused::MatMul::spelling(then))});
    n.inputs = {a, w};
    if (bias >= 0) n.inputs.push_back(bias);
    n.outputs = {out};
    if (!replace_if_kernel(mm, std::move(n), st)) continue;
    for (int j : absorbed) removed[j] = 1;
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
