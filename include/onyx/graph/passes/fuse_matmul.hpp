// onyx/graph/passes/fuse_matmul.hpp: a MatMul against a constant matrix
// absorbs the bias Add and the Gelu after it; a dynamically quantized MatMul
// absorbs the Gelu after it.
//
//   MatMul(A, W) [+ b] [-> Gelu]  ->  onyx.fused.MatMul(A, W, b), activation none / Gelu / GeluTanh
//   com.microsoft.DynamicQuantizeMatMul(...) -> Gelu  ->  onyx.fused.DynamicQuantizeMatMul(...), activation
//   com.microsoft.MatMulIntegerToFloat(...) -> Gelu   ->  onyx.fused.MatMulIntegerToFloat(...), activation
// W a float32 constant of rank 2 ([K, N]); b a float32 constant holding N
// values along the last axis (any leading 1s, so the Add does not change the
// product's shape); A of rank >= 2. At least one of the two is absorbed, each
// only when the value before it has that node as its single reader. The
// fused kernel packs W once and applies b and GELU to each finished GEMM
// tile, saving the passes over memory that the Add and the Gelu made. Runs
// after fuse_gemm, which turns a rank-2 MatMul + bias into a Gemm (with its
// one-row GEMV path), so this pass sees the transformer's [batch, seq, hidden]
// products. The quantized MatMuls are fuse_quantized's (the chains ORT's
// quantize_dynamic writes), whose GELU fuse_gelu, which runs after it, has
// since made one Gelu node (approximate none or tanh); the Gelu moves in when
// it is the MatMul's output's sole reader, and the fused kernel maps the
// Gelu kernel's own function over each finished float tile, so outputs do not
// change. Each rewrite fires only when the op table has its fused op with a
// kernel for the type. Tested in test/unit/fuse_transformer_test.cpp and
// (the quantized MatMuls) test/unit/fuse_quantized_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/fused/mat_mul_integer_to_float.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/mat_mul_integer_to_float.hpp"

namespace onyx::graph::passes {

namespace fuse_matmul_detail {

/// fused::MatMul's function for a Gelu node.
inline ops::fused::MatMul::function function_of(const ops::Gelu::attributes& a) {
  return a.approximate == "tanh" ? ops::fused::MatMul::function::gelu_tanh : ops::fused::MatMul::function::gelu;
}

/// A quantized MatMul whose output only a Gelu reads becomes its onyx.fused twin.
inline void absorb_gelu_into_quantized(graph& g, inferred& st, const op_table& ops, const readers& r,
                                       std::vector<char>& removed) {
  const op_info* dq_matmul = find_op<ops::fused::DynamicQuantizeMatMul>(ops);
  const op_info* q_matmul = find_op<ops::fused::MatMulIntegerToFloat>(ops);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    node& mm = g.nodes[k];
    const op_info* fused = dq_matmul && match<ops::DynamicQuantizeMatMul>(mm) ? dq_matmul
                           : q_matmul && match<ops::MatMulIntegerToFloat>(mm) ? q_matmul
                                                                              : nullptr;
    if (removed[k] || !fused || mm.outputs.size() != 1 || mm.outputs[0] < 0) continue;
    const int next = r.sole(mm.outputs[0]);
    const auto* ga = next >= 0 && !removed[next] ? match<ops::Gelu>(g.nodes[next]) : nullptr;
    if (!ga) continue;
    const auto then = function_of(*ga);
    node n;
    n.name = mm.name;
    n.op_type = mm.op_type + "+" + g.nodes[next].op_type;
    n.domain = std::string(fused->domain);
    n.op = fused;
    n.attrs = std::make_shared<ops::fused::MatMul::attributes>(ops::fused::MatMul::attributes{then});
    n.raw_attrs.push_back(attribute{"activation", std::string(ops::fused::MatMul::spelling(then))});
    n.inputs = mm.inputs;
    n.outputs = g.nodes[next].outputs;
    if (replace_if_kernel(mm, std::move(n), st)) removed[next] = 1;
  }
}

}  // namespace fuse_matmul_detail

inline status fuse_matmul(graph& g, inferred& st, const op_table& ops) {
  const readers r(g);
  std::vector<char> removed(g.nodes.size(), 0);
  const op_info* fused = find_op<ops::fused::MatMul>(ops);
  for (std::size_t k = 0; fused && k < g.nodes.size(); ++k) {
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
        then = fuse_matmul_detail::function_of(*ga);
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
  fuse_matmul_detail::absorb_gelu_into_quantized(g, st, ops, r, removed);
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
