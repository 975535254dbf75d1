// onyx/graph/passes/passes.hpp: the optimization pipeline, in order.
//
// A pass decision is a pure function of (graph, available ops). Each pass is
// one file with its own test; `pipeline` lists them by name, the names the
// stage dumps use (`onyx-run --dump-stages DIR` writes one file after each).
// Tested in test/unit/dump_test.cpp (the stage files) and one test file per pass.
#pragma once

#include <array>
#include <functional>
#include <string_view>

#include "onyx/graph/passes/compute_float16_in_float32.hpp"
#include "onyx/graph/passes/eliminate_identity.hpp"
#include "onyx/graph/passes/fuse_attention.hpp"
#include "onyx/graph/passes/fold_constants.hpp"
#include "onyx/graph/passes/fuse_batch_norm.hpp"
#include "onyx/graph/passes/fuse_conv.hpp"
#include "onyx/graph/passes/fuse_elementwise.hpp"
#include "onyx/graph/passes/fuse_gelu.hpp"
#include "onyx/graph/passes/fuse_gemm.hpp"
#include "onyx/graph/passes/fuse_layer_norm.hpp"
#include "onyx/graph/passes/fuse_matmul.hpp"
#include "onyx/graph/passes/fuse_qdq.hpp"
#include "onyx/graph/passes/fuse_quantized.hpp"
#include "onyx/graph/passes/fuse_rms_norm.hpp"
#include "onyx/graph/passes/fuse_skip_layer_norm.hpp"
#include "onyx/graph/passes/remove_dead_nodes.hpp"

namespace onyx::graph::passes {

/// ONNX Runtime's four graph optimization levels; a pass runs when its level
/// is at most the session's. `basic`: folding, eliminations and one-for-one
/// rewrites (BatchNormalization into a Conv, a bias Add into a Gemm);
/// `extended`: fusions of patterns into one op, standard (LayerNormalization,
/// Gelu, Attention, as ORT's extended level) or onyx's own (onyx.fused.*);
/// `all`: layout changes as well (none yet). `none` runs no pass at all.
enum class optimization_level { none, basic, extended, all };

/// Which optional passes run (the session's options choose).
struct pass_options {
  /// compute_float16_in_float32: float16/bfloat16 regions run as float32.
  bool compute_float16_in_float32 = true;
  optimization_level level = optimization_level::all;
};

/// What a pass may use besides the graph and its inferred types.
struct pass_context {
  const evaluate_fn& evaluate;  // runs a node on known inputs (constant folding)
  const op_table& ops;          // the ops a rewrite may produce
  const pass_options& options;
};

struct pass {
  std::string_view name;
  status (*run)(graph&, inferred&, const pass_context&);
  optimization_level level = optimization_level::extended;  // the lowest level that runs it
};

inline constexpr std::array pipeline{
    // before folding, which would turn the weights' DequantizeLinear into float constants
    pass{"fuse_qdq", [](graph& g, inferred& st, const pass_context& c) { return fuse_qdq(g, st, c.ops, c.evaluate); }},
    pass{"fold_constants",
         [](graph& g, inferred& st, const pass_context& c) { return fold_constants(g, st, c.evaluate); },
         optimization_level::basic},
    pass{"eliminate_identity", [](graph& g, inferred& st, const pass_context&) { return eliminate_identity(g, st); },
         optimization_level::basic},
    pass{"compute_float16_in_float32",
         [](graph& g, inferred& st, const pass_context& c) {
           return c.options.compute_float16_in_float32 ? compute_float16_in_float32(g, st, c.ops, c.evaluate) : ok();
         },
         optimization_level::basic},
    pass{"fuse_quantized",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_quantized(g, st, c.ops); }},
    pass{"fuse_layer_norm",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_layer_norm(g, st, c.ops); }},
    pass{"fuse_rms_norm",  // after fuse_layer_norm, whose tail is an RMSNorm of x - mean
         [](graph& g, inferred& st, const pass_context& c) { return fuse_rms_norm(g, st, c.ops); }},
    pass{"fuse_gelu", [](graph& g, inferred& st, const pass_context& c) { return fuse_gelu(g, st, c.ops); }},
    pass{"fuse_attention",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_attention(g, st, c.ops); }},
    pass{"fuse_conv", [](graph& g, inferred& st, const pass_context& c) { return fuse_conv(g, st, c.ops); }},
    pass{"fuse_batch_norm", [](graph& g, inferred& st, const pass_context&) { return fuse_batch_norm(g, st); },
         optimization_level::basic},
    pass{"fuse_batch_norm_activation",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_batch_norm_activation(g, st, c.ops); }},
    pass{"fuse_gemm", [](graph& g, inferred& st, const pass_context& c) { return fuse_gemm(g, st, c.ops); },
         optimization_level::basic},
    pass{"fuse_matmul", [](graph& g, inferred& st, const pass_context& c) { return fuse_matmul(g, st, c.ops); }},
    pass{"fuse_skip_layer_norm",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_skip_layer_norm(g, st, c.ops); }},
    // last of the fusions: it takes the elementwise regions the others left
    pass{"fuse_elementwise",
         [](graph& g, inferred& st, const pass_context& c) { return fuse_elementwise(g, st, c.ops); }},
    pass{"remove_dead_nodes",
         [](graph& g, inferred& st, const pass_context&) {
           remove_dead_nodes(g, st);
           return ok();
         },
         optimization_level::basic},
};

/// Called after each pass with its name and the graph it left (a stage dump).
using after_pass_fn = std::function<status(std::string_view pass, const graph&, const inferred&)>;

/// Runs `pipeline` over `g`: the passes of `options.level` and below; `after`,
/// when set, sees the graph after each pass run; `options` switch the optional passes.
inline status optimize(graph& g, inferred& st, const evaluate_fn& evaluate, const op_table& ops,
                       const after_pass_fn& after = {}, const pass_options& options = {}) {
  const pass_context c{evaluate, ops, options};
  for (const auto& p : pipeline) {
    if (p.level > options.level) continue;
    ONYX_TRY(p.run(g, st, c));
    if (after) ONYX_TRY(after(p.name, g, st));
  }
  return ok();
}

}  // namespace onyx::graph::passes
