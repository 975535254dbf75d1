// onyx/graph/passes/fuse_gemm.hpp: a bias Add folded into the product before it.
//
//   MatMul(A, B) + c    ->  Gemm(A, B, c)         A of rank 2, B a constant of rank 2
//   Gemm(A, B) + c      ->  Gemm(A, B, c), beta 1  the Gemm had no C
// where c is a constant of the product's dtype that broadcasts to its [M, N]
// output without changing its shape (rank <= 2, each dim 1 or the output's),
// and the product's output has the Add as its single reader. Gemm adds C in
// its GEMM epilogue (or copies it into Y first), which saves the Add's pass
// over memory. Fires only when the op table has Gemm with a kernel for the
// dtype. Tested in test/unit/fuse_gemm_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/mat_mul.hpp"

namespace onyx::graph::passes {

inline status fuse_gemm(graph& g, inferred& st, const op_table& ops) {
  const op_info* gemm = find_op<ops::Gemm>(ops);
  if (!gemm) return ok();
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& prod = g.nodes[k];
    if (removed[k]) continue;
    const bool matmul = match<ops::MatMul>(prod);
    const auto* gemm_attrs = match<ops::Gemm>(prod);
    if (!(matmul || gemm_attrs) || prod.inputs.size() < 2 || prod.outputs.size() != 1) continue;
    if (matmul) {
      const int a = prod.inputs[0], b = prod.inputs[1];
      if (a < 0 || b < 0 || !st.types[a].shape.rank_known || st.types[a].shape.rank() != 2 || !g.values[b].constant ||
          g.values[b].constant->rank() != 2)
        continue;
    } else if (prod.inputs.size() > 2 && prod.inputs[2] >= 0) {
      continue;
    }
    const int y = prod.outputs[0];
    const int next = y >= 0 ? r.sole(y) : -1;
    if (next < 0 || !match<ops::Add>(g.nodes[next]) || g.nodes[next].inputs.size() != 2) continue;
    const node& add = g.nodes[next];
    const int c = add.inputs[0] == y ? add.inputs[1] : add.inputs[0];
    const auto& out = st.types[y].shape;
    if (c < 0 || !g.values[c].constant || g.values[c].constant->type() != st.types[y].type || !out.rank_known ||
        out.rank() != 2)
      continue;
    const tensor& ct = *g.values[c].constant;
    bool fits = ct.rank() <= 2;
    for (std::size_t j = 0; fits && j < ct.rank(); ++j) {
      const auto& d = out[2 - ct.rank() + j];
      fits = ct.dim(j) == 1 || (d.known() && d.value() == ct.dim(j));
    }
    if (!fits) continue;

    // A MatMul is Gemm with the defaults; a Gemm keeps alpha and transposes,
    // and its new C enters with beta 1.
    auto attrs = std::make_shared<ops::Gemm::attributes>(gemm_attrs ? *gemm_attrs : ops::Gemm::attributes{});
    attrs->beta = 1.0f;
    node n;
    n.name = prod.name;
    n.op_type = prod.op_type + "+Add";
    n.op = gemm;
    n.attrs = std::move(attrs);
    if (gemm_attrs)
      for (const auto& a : prod.raw_attrs)
        if (a.name != "beta") n.raw_attrs.push_back(a);
    n.inputs = {prod.inputs[0], prod.inputs[1], c};
    n.outputs = add.outputs;
    if (replace_if_kernel(prod, std::move(n), st)) removed[next] = 1;
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
