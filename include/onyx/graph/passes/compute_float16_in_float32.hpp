// onyx/graph/passes/compute_float16_in_float32.hpp: float16 and bfloat16
// computation moved to float32, with Casts at the region's edges.
//
// This CPU backend has no half-precision arithmetic: a float16 kernel widens
// its inputs to float32 in scratch, computes, and narrows its output, on
// every run and for every op. This pass does the conversion once per edge of
// the graph instead. Every node that
//   - is an op of `float32_exact_ops` below (its float16 semantics are "compute
//     in float32 and round the result": continuous elementwise math, Conv,
//     Gemm/MatMul, pools, Resize, normalizations, Softmax, reductions, data
//     movement), or of `precision_blind_ops` (Shape, Size: they read only the
//     shape),
//   - has float16 or bfloat16 inputs or outputs, and every present output of
//     such a type (for the listed ops other than Shape/Size: an op with an
//     integer or bool output next to its float one, MaxPool's Indices, stays),
//   - has no subgraph, and
//   - has a kernel in the op table for its signature with those types made
//     float32 (asked of the node's own op_info, so a build without it leaves
//     the node alone),
// is retyped to float32. Then, per float16/bfloat16 value v:
//   - v is produced by a retyped node: the node writes a float32 value; when
//     anyone else reads v (a node left alone, a subgraph capture, a graph
//     output), v keeps its name and type and is made by Cast(to v's type)
//     right after the producer. Otherwise v itself becomes float32.
//   - v is a constant read by retyped nodes: its float32 copy is made here,
//     once (v itself is converted when nothing else reads it).
//   - v is otherwise made outside (a graph input, a capture, a node left
//     alone) and read by retyped nodes: Cast(to float32) before the first.
// Casts are placed per value, not per edge: a value gets at most one float32
// version and keeps at most one narrow one, so an exit Cast never feeds an
// entry Cast and the pass creates no Cast(f32 -> f16) -> Cast(f16 -> f32)
// pair to clean up. A user's own Casts are never removed or merged: in the
// user's graph f32 -> f16 -> f32 rounds, and that rounding is the model's.
//
// Results: a chain of retyped nodes rounds once at its exit instead of after
// every op, so outputs are closer to the exact value than the float16
// chain's, and differ from it by about the float16 rounding of the
// intermediates (within ONNX's float16 tolerances; test/unit/
// compute_float16_in_float32_test.cpp measures it on a small CNN). Where a
// float16 intermediate would overflow to Inf, float32 keeps the finite value.
// Ops where a tiny input change can flip the output (comparisons, Floor,
// Ceil, Round, Sign, Mod, ThresholdedRelu, Shrink, ArgMax, TopK, Hardmax) are
// not listed, so they see exactly the float16 values the model gives them.
//
// Runs after fold_constants (folded constants are converted too) and before
// fuse_conv, which then folds and fuses the float32 Convs. Controlled by
// session_options::compute_float16_in_float32.
// Tested in test/unit/compute_float16_in_float32_test.cpp.
#pragma once

#include <memory>

#include "onyx/core/float_convert.hpp"
#include "onyx/graph/passes/rewrite.hpp"
#include "onyx/ops/abs.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/celu.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/conv_transpose.hpp"
#include "onyx/ops/cos.hpp"
#include "onyx/ops/cum_sum.hpp"
#include "onyx/ops/depth_to_space.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/einsum.hpp"
#include "onyx/ops/elu.hpp"
#include "onyx/ops/erf.hpp"
#include "onyx/ops/exp.hpp"
#include "onyx/ops/expand.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/ops/gather.hpp"
#include "onyx/ops/gather_elements.hpp"
#include "onyx/ops/gather_nd.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/global_lp_pool.hpp"
#include "onyx/ops/global_max_pool.hpp"
#include "onyx/ops/group_normalization.hpp"
#include "onyx/ops/hard_sigmoid.hpp"
#include "onyx/ops/hard_swish.hpp"
#include "onyx/ops/identity.hpp"
#include "onyx/ops/instance_normalization.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/leaky_relu.hpp"
#include "onyx/ops/log.hpp"
#include "onyx/ops/log_softmax.hpp"
#include "onyx/ops/lp_normalization.hpp"
#include "onyx/ops/lp_pool.hpp"
#include "onyx/ops/lrn.hpp"
#include "onyx/ops/mat_mul.hpp"
#include "onyx/ops/max.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/ops/mean.hpp"
#include "onyx/ops/mean_variance_normalization.hpp"
#include "onyx/ops/min.hpp"
#include "onyx/ops/mish.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/neg.hpp"
#include "onyx/ops/op_list.hpp"
#include "onyx/ops/pad.hpp"
#include "onyx/ops/pow.hpp"
#include "onyx/ops/prelu.hpp"
#include "onyx/ops/reciprocal.hpp"
#include "onyx/ops/reduce.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/resize.hpp"
#include "onyx/ops/rms_normalization.hpp"
#include "onyx/ops/selu.hpp"
#include "onyx/ops/shape.hpp"
#include "onyx/ops/sigmoid.hpp"
#include "onyx/ops/sin.hpp"
#include "onyx/ops/size.hpp"
#include "onyx/ops/slice.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/ops/softplus.hpp"
#include "onyx/ops/softsign.hpp"
#include "onyx/ops/space_to_depth.hpp"
#include "onyx/ops/split.hpp"
#include "onyx/ops/sqrt.hpp"
#include "onyx/ops/squeeze.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/sum.hpp"
#include "onyx/ops/swish.hpp"
#include "onyx/ops/tan.hpp"
#include "onyx/ops/tanh.hpp"
#include "onyx/ops/tile.hpp"
#include "onyx/ops/transpose.hpp"
#include "onyx/ops/trilu.hpp"
#include "onyx/ops/unsqueeze.hpp"
#include "onyx/ops/where.hpp"

namespace onyx::graph::passes {

/// Ops whose float16/bfloat16 result is their float32 result rounded, and
/// whose output moves continuously with their float inputs.
// clang-format off
using float32_exact_ops = op_list<
    // elementwise
    ops::Add, ops::Sub, ops::Mul, ops::Div, ops::Pow, ops::Where, ops::Sum, ops::Max, ops::Min, ops::Mean,
    ops::Abs, ops::Neg, ops::Reciprocal, ops::Sqrt, ops::Exp, ops::Log, ops::Erf, ops::Sin, ops::Cos, ops::Tan,
    ops::Relu, ops::LeakyRelu, ops::PRelu, ops::Sigmoid, ops::HardSigmoid, ops::HardSwish, ops::Tanh, ops::Elu,
    ops::Selu, ops::Celu, ops::Softplus, ops::Softsign, ops::Gelu, ops::Mish, ops::Swish, ops::Clip, ops::Identity,
    // convolution, products, pools, resampling
    ops::Conv, ops::fused::Conv, ops::ConvTranspose, ops::Gemm, ops::MatMul, ops::Einsum, ops::MaxPool,
    ops::AveragePool, ops::LpPool, ops::GlobalMaxPool, ops::GlobalAveragePool, ops::GlobalLpPool, ops::Resize,
    // normalizations, softmax, reductions
    ops::BatchNormalization, ops::InstanceNormalization, ops::LayerNormalization, ops::GroupNormalization,
    ops::RMSNormalization, ops::LpNormalization, ops::MeanVarianceNormalization, ops::LRN, ops::Softmax,
    ops::LogSoftmax, ops::ReduceSum, ops::ReduceMean, ops::ReduceMax, ops::ReduceMin, ops::ReduceProd,
    ops::ReduceL1, ops::ReduceL2, ops::ReduceLogSum, ops::ReduceLogSumExp, ops::ReduceSumSquare, ops::CumSum,
    // data movement
    ops::Reshape, ops::Flatten, ops::Squeeze, ops::Unsqueeze, ops::Transpose, ops::Concat, ops::Split, ops::Slice,
    ops::Expand, ops::Tile, ops::Pad, ops::DepthToSpace, ops::SpaceToDepth, ops::Gather, ops::GatherElements,
    ops::GatherND, ops::Trilu>;
// clang-format on

/// Ops that read only their input's shape: any float type gives the same output.
using precision_blind_ops = op_list<ops::Shape, ops::Size>;

namespace compute_float16_in_float32_detail {

template <class... Ops>
bool listed(op_list<Ops...>, const op_info& info) {
  return (is_op<Ops>(info) || ...);
}

inline bool narrow_float(dtype t) { return t == dtype::float16 || t == dtype::bfloat16; }

/// Whether some backend of `op` has a kernel keyed `key`.
inline bool has_kernel(const op_info& op, std::uint32_t key) {
  for (const auto& bk : op.kernels)
    if (bk.find(key)) return true;
  return false;
}

/// `t` (float16 or bfloat16) as a float32 tensor.
inline tensor widened(const tensor& t) {
  tensor w = tensor::zeros(dtype::float32, t.shape());
  if (t.type() == dtype::float16)
    widen(t.values<float16_t>(), w.values<float>());
  else
    widen(t.values<bfloat16_t>(), w.values<float>());
  return w;
}

/// `base` if no value of `g` has that name, else `base_1`, `base_2`, ...
inline std::string fresh_name(const graph& g, const std::string& base) {
  std::string name = base;
  for (int i = 1; g.find(name) >= 0; ++i) name = base + "_" + std::to_string(i);
  return name;
}

}  // namespace compute_float16_in_float32_detail

/// The pass. `evaluate` re-infers the rewritten nodes (their types, and the
/// small values inference propagates).
inline status compute_float16_in_float32(graph& g, inferred& st, const op_table& ops, const evaluate_fn& evaluate) {
  using namespace compute_float16_in_float32_detail;
  const op_info* cast = find_op<ops::Cast>(ops);
  if (!cast) return ok();
  // Narrow types this build can cast both ways.
  auto castable = [&](dtype t) {
    const auto key = [](dtype from, dtype to) { return ops::signature{{from, to}, 2}.key(); };
    return has_kernel(*cast, key(t, dtype::float32)) && has_kernel(*cast, key(dtype::float32, t));
  };
  const bool castable_f16 = castable(dtype::float16), castable_bf16 = castable(dtype::bfloat16);
  auto convertible = [&](int id) {
    if (id < 0 || st.types[id].kind != value_kind::tensor) return false;
    const dtype t = st.types[id].type;
    return (t == dtype::float16 && castable_f16) || (t == dtype::bfloat16 && castable_bf16);
  };

  // Which nodes move to float32.
  const std::size_t N = g.nodes.size();
  std::vector<char> moved(N, 0);
  bool any = false;
  for (std::size_t k = 0; k < N; ++k) {
    const node& n = g.nodes[k];
    if (!n.op || !n.subgraphs.empty()) continue;
    const bool blind = listed(precision_blind_ops{}, *n.op);
    if (!blind && !listed(float32_exact_ops{}, *n.op)) continue;
    bool narrow = false, eligible = true;
    for (int id : n.inputs)
      if (id >= 0 && narrow_float(st.types[id].type)) narrow = true, eligible = eligible && convertible(id);
    for (int id : n.outputs) {
      if (id < 0) continue;
      if (narrow_float(st.types[id].type))
        narrow = true, eligible = eligible && convertible(id);
      else if (!blind)
        eligible = false;
    }
    if (!narrow || !eligible) continue;
    ops::signature sig = signature_of(n, st);
    for (int i = 0; i < sig.n; ++i)
      if (narrow_float(sig.t[i])) sig.t[i] = dtype::float32;
    if (!has_kernel(*n.op, sig.key())) continue;
    moved[k] = 1;
    any = true;
  }
  if (!any) return ok();

  // Per narrow value: whether moved nodes read it, and whether anyone else does.
  const std::size_t V = g.values.size();
  std::vector<int> producer(V, -1);
  std::vector<char> read_inside(V, 0), read_outside(V, 0);
  for (std::size_t k = 0; k < N; ++k) {
    const node& n = g.nodes[k];
    for (int id : n.outputs)
      if (id >= 0) producer[id] = static_cast<int>(k);
    for (int id : n.inputs)
      if (id >= 0) (moved[k] ? read_inside : read_outside)[id] = 1;
    for (const auto& sg : n.subgraphs)
      for (int c : sg->captures)
        if (int outer = g.find(sg->values[c].name); outer >= 0) read_outside[outer] = 1;
  }
  for (int id : g.outputs) read_outside[id] = 1;

  // The float32 version of each narrow value a moved node touches (-1: none yet).
  std::vector<int> wide(V, -1);
  auto retype = [&](int id) {
    g.values[id].type.type = dtype::float32;
    st.types[id].type = dtype::float32;
    st.known[id].reset();
  };
  auto new_value = [&](int of) {
    value_type t = st.types[of];
    t.type = dtype::float32;
    const int id = g.add_value(fresh_name(g, g.values[of].name + "/float32"), t);
    st.types.push_back(t);
    st.known.emplace_back();
    return id;
  };
  auto make_cast = [&](int from, int to, dtype type, const std::string& name) {
    auto attrs = std::make_shared<ops::Cast::attributes>();
    attrs->to = static_cast<std::int64_t>(type);
    node c;
    c.name = name;
    c.op_type = "Cast";
    c.op = cast;
    c.attrs = std::move(attrs);
    c.raw_attrs = {attribute{"to", static_cast<std::int64_t>(type)}};
    c.inputs = {from};
    c.outputs = {to};
    return c;
  };

  std::vector<node> out;
  std::vector<char> rewritten;  // per node of `out`: moved or inserted (re-inferred below)
  out.reserve(N + 16);
  auto emit = [&](node&& n, bool changed) {
    out.push_back(std::move(n));
    rewritten.push_back(changed);
  };
  for (std::size_t k = 0; k < N; ++k) {
    node& n = g.nodes[k];
    if (!moved[k]) {
      emit(std::move(n), false);
      continue;
    }
    // Entries: narrow inputs made outside get their float32 version first.
    for (int& id : n.inputs) {
      if (id < 0 || !narrow_float(st.types[id].type)) continue;
      if (wide[id] < 0) {
        if (const tensor* c = constant_of(g, id)) {
          tensor w = widened(*c);
          if (read_outside[id]) {
            wide[id] = add_constant(g, st, fresh_name(g, g.values[id].name + "/float32"), std::move(w));
          } else {
            g.values[id].type.type = dtype::float32;
            st.types[id].type = dtype::float32;
            st.known[id] = w;
            g.values[id].constant = std::move(w);
            wide[id] = id;
          }
        } else {
          wide[id] = new_value(id);
          emit(make_cast(id, wide[id], dtype::float32, g.values[id].name + "/to_float32"), true);
        }
      }
      id = wide[id];
    }
    // Exits: narrow outputs that others read keep their name, made by a Cast.
    std::vector<node> exits;
    for (int& id : n.outputs) {
      if (id < 0 || !narrow_float(st.types[id].type)) continue;
      if (!read_outside[id]) {
        retype(id);
        wide[id] = id;
        continue;
      }
      const int w = new_value(id);
      exits.push_back(
          make_cast(w, id, st.types[id].type, g.values[id].name + "/to_" + std::string(name(st.types[id].type))));
      wide[id] = w;
      id = w;
    }
    emit(std::move(n), true);
    for (auto& e : exits) emit(std::move(e), true);
  }
  g.nodes = std::move(out);

  // The rewritten nodes' types and propagated values, from their ops' own inference.
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    if (!rewritten[k]) continue;
    status s = infer_node(g.nodes[k], st, evaluate, &g);
    if (!s.ok()) return std::move(s).with_context(g.nodes[k].label() + ", moved to float32");
  }
  return ok();
}

}  // namespace onyx::graph::passes
