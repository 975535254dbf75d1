// onyx/graph/passes/fuse_quantized.hpp: the chains ORT's quantize_dynamic
// writes for a MatMul or Conv with 8-bit weights, each into one node that
// quantizes its float input itself, runs the int8 GEMM and applies the scales
// and the bias to the finished accumulators.
//
//   (xq, xs, xz) = DynamicQuantizeLinear(x)
//   MatMulInteger(xq, W, xz [, wz]) -> Cast(float) -> Mul(., Mul(xs, ws)) [-> Add(., b)]
//     -> com.microsoft.DynamicQuantizeMatMul(x, W, ws, wz, b)
//   ConvInteger(xq, W, xz [, wz]) -> Cast(float) -> Mul(., Mul(xs, ws)) [-> Add(., b)]
//     -> onyx.fused.DynamicQuantizeConv(x, W, ws, wz, b), the ConvInteger's attributes
//
// W, ws, wz and b constant; ws and wz scalars or one per output column
// (MatMul) / channel (Conv, along axis 1 of the output); b the same for the
// bias (the Add's other operand). The Cast, the Mul and the Add are absorbed
// only when each is the sole reader of the value before it; the scales' Mul
// stays for its other readers and goes with remove_dead_nodes once none is
// left. A quantized input that several MatMulIntegers read (the Q, K and V
// projections of an attention layer) is quantized once: its
// DynamicQuantizeLinear stays, and each chain becomes
//     -> com.microsoft.MatMulIntegerToFloat(xq, W, xs, ws, xz, wz, b)
// (as ORT fuses it) instead of three DynamicQuantizeMatMuls that would each
// quantize the same input again. The fused kernels round as the chain does,
// so outputs do not change. Fires only when the op table has the fused op
// with a kernel for W's type. Tested in test/unit/fuse_quantized_test.cpp.
#pragma once

#include <memory>

#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/conv_integer.hpp"
#include "onyx/ops/dynamic_quantize_linear.hpp"
#include "onyx/ops/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/dynamic_quantize_conv.hpp"
#include "onyx/ops/mat_mul_integer.hpp"
#include "onyx/ops/mat_mul_integer_to_float.hpp"
#include "onyx/ops/mul.hpp"

namespace onyx::graph::passes {

namespace detail {
/// A constant float tensor as `count` values along the output's axis `axis`
/// (of `rank`): one value (any shape of size 1), or `count` values whose
/// every other dim is 1 and which lines up with that axis under numpy
/// broadcasting. Empty when it does not fit.
inline std::vector<float> aligned_floats(const graph& g, int id, std::size_t rank, std::size_t axis,
                                         std::int64_t count) {
  const tensor* c = constant_of(g, id);
  if (!c || c->type() != dtype::float32 || c->size() < 1 || c->rank() > rank) return {};
  if (c->size() == 1) return {c->data<float>()[0]};
  for (std::size_t j = 0; j < c->rank(); ++j) {
    const std::size_t at = rank - c->rank() + j;
    if (c->dim(j) != 1 && !(at == axis && c->dim(j) == count)) return {};
  }
  if (c->size() != count) return {};
  return std::vector<float>(c->data<float>(), c->data<float>() + count);
}
}  // namespace detail

inline status fuse_quantized(graph& g, inferred& st, const op_table& ops) {
  const op_info* dq_matmul = find_op<ops::DynamicQuantizeMatMul>(ops);
  const op_info* dq_conv = find_op<ops::fused::DynamicQuantizeConv>(ops);
  const op_info* q_matmul = find_op<ops::MatMulIntegerToFloat>(ops);
  if (!dq_matmul && !dq_conv) return ok();
  const readers r(g);
  const std::vector<int> prod = producers(g);
  const chain_walk walk{g, r, prod};
  std::vector<char> removed(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const node& q = g.nodes[k];
    const bool is_mm = dq_matmul && match<ops::MatMulInteger>(q);
    const auto* conv_attrs = dq_conv ? match<ops::ConvInteger>(q) : nullptr;
    if ((!is_mm && !conv_attrs) || q.inputs.size() < 3 || q.outputs.size() != 1 || q.outputs[0] < 0) continue;
    // The quantized input and its zero point from one DynamicQuantizeLinear.
    const int xq = q.inputs[0], w = q.inputs[1], xz = q.inputs[2], wz = q.inputs.size() > 3 ? q.inputs[3] : -1;
    if (xq < 0 || xz < 0 || prod[xq] < 0 || prod[xq] != prod[xz]) continue;
    const node& d = g.nodes[prod[xq]];
    if (!match<ops::DynamicQuantizeLinear>(d) || d.outputs.size() != 3 || d.outputs[0] != xq || d.outputs[2] != xz ||
        d.outputs[1] < 0)
      continue;
    const tensor* wt = constant_of(g, w);
    if (!wt || (wt->type() != dtype::int8 && wt->type() != dtype::uint8) || (is_mm ? wt->rank() != 2 : wt->rank() < 3))
      continue;
    if (wz >= 0 && !constant_of(g, wz)) continue;
    const std::int64_t count = is_mm ? wt->dim(1) : wt->dim(0);  // output columns / channels
    // Cast to float, then Mul by the scales' product Mul(xs, ws).
    const int cast = walk.next(static_cast<int>(k));
    const auto* ca = cast >= 0 ? match<ops::Cast>(g.nodes[cast]) : nullptr;
    if (!ca || ca->to != static_cast<std::int64_t>(dtype::float32)) continue;
    const int cast_out = g.nodes[cast].outputs[0];
    const int mul = walk.next(cast);
    if (mul < 0 || !match<ops::Mul>(g.nodes[mul]) || g.nodes[mul].inputs.size() != 2) continue;
    const int scales = other_input(g.nodes[mul], cast_out);
    if (scales < 0 || prod[scales] < 0 || !match<ops::Mul>(g.nodes[prod[scales]])) continue;
    const int ws = other_input(g.nodes[prod[scales]], d.outputs[1]);
    const std::size_t rank = st.types[q.outputs[0]].shape.rank_known ? st.types[q.outputs[0]].shape.rank() : 0;
    if (rank < 2) continue;
    const std::size_t axis = is_mm ? rank - 1 : 1;
    std::vector<float> w_scale = ws >= 0 ? detail::aligned_floats(g, ws, rank, axis, count) : std::vector<float>{};
    if (w_scale.empty()) continue;
    // An optional Add of a constant bias along the same axis.
    std::vector<int> chain{static_cast<int>(k), cast, mul};
    int out = g.nodes[mul].outputs[0];
    std::vector<float> bias;
    if (const int add = walk.next(mul); add >= 0 && match<ops::Add>(g.nodes[add]) && g.nodes[add].inputs.size() == 2) {
      const int b = other_input(g.nodes[add], out);
      bias = b >= 0 ? detail::aligned_floats(g, b, rank, axis, count) : std::vector<float>{};
      if (!bias.empty()) {
        if (bias.size() == 1) bias.assign(static_cast<std::size_t>(count), bias[0]);
        chain.push_back(add);
        out = g.nodes[add].outputs[0];
      }
    }
    if (!unclaimed(removed, chain)) continue;

    // Several MatMulIntegers read the quantized input: quantize it once.
    const bool shared = is_mm && q_matmul && r.count[xq] > 1;

    node n;
    n.name = q.name;
    n.op_type = q.op_type + "+Cast+Mul" + (bias.empty() ? "" : "+Add");
    const op_info* fused = shared ? q_matmul : is_mm ? dq_matmul : dq_conv;
    n.domain = std::string(fused->domain);
    n.op = fused;
    if (shared) {
      n.attrs = std::make_shared<ops::MatMulIntegerToFloat::attributes>();
    } else if (is_mm) {
      n.attrs = std::make_shared<ops::DynamicQuantizeMatMul::attributes>();
    } else {
      n.attrs = std::make_shared<ops::fused::DynamicQuantizeConv::attributes>(*conv_attrs);
      n.raw_attrs = q.raw_attrs;
    }
    const std::int64_t scale_count = static_cast<std::int64_t>(w_scale.size());
    const int scale_id = add_constant(g, st, q.name + "/w_scale",
                                      tensor::from(std::span<const float>(w_scale), {scale_count}));
    const int bias_id =
        bias.empty() ? -1 : add_constant(g, st, q.name + "/bias", tensor::from(std::span<const float>(bias), {count}));
    if (shared)  // A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias
      n.inputs = {xq, w, d.outputs[1], scale_id, xz, wz, bias_id};
    else
      n.inputs = {d.inputs[0], w, scale_id, wz, bias_id};
    while (n.inputs.back() < 0) n.inputs.pop_back();
    n.outputs = {out};
    replace_chain(g, st, removed, chain, chain.back(), std::move(n));
  }
  erase_marked(g, removed);
  return ok();
}

}  // namespace onyx::graph::passes
