// ops::SkipLayerNormalization (com.microsoft, opset 1): a residual Add and the
// LayerNormalization after it, in one pass over each row,
//   s = input + skip [+ bias]
//   output = (s - mean(s)) / sqrt(var(s) + epsilon) * gamma [+ beta]
// over the last axis. input is [B, S, H] or [S, H]; ONNX Runtime's schema
// wants skip of input's shape or its last two dims; onyx takes any input and
// skip of rank 2 or 3 with the same last dim H whose leading dims broadcast
// (so a residual Add of any such shapes can become this op), and the outputs
// have the broadcast shape. gamma, beta and bias are [H]. Optional outputs:
// mean and inv_std_var (float, the leading dims and a trailing 1) and
// input_skip_bias_sum (s). epsilon defaults to 1e-12, as in ONNX Runtime's
// schema. Also what graph/passes/fuse_skip_layer_norm.hpp makes of Add ->
// LayerNormalization. Kernel: float32, on the ISA LayerNorm row kernel
// (kernels/cpu/skip_layer_normalization.hpp).
// Tested in test/unit/fuse_transformer_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct SkipLayerNormalization {
  static constexpr std::string_view domain = "com.microsoft", name = "SkipLayerNormalization";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{3, 5}, outputs{1, 4};
  static constexpr dtype_set T = dtypes::f32;
  struct attributes {
    float epsilon = 1e-12f;
    static constexpr auto fields = std::tuple{field{"epsilon", &attributes::epsilon}};
  };
  static status infer(const attributes&, infer_context& c) {
    for (int i = 0; i < 5; ++i)
      if (i < 3 || c.has_input(i)) ONYX_TRY(require_type(c, i, T, "T"));
    const sym_shape &x = c.input_shape(0), &skip = c.input_shape(1);
    for (const sym_shape* p : {&x, &skip})
      if (p->rank_known && p->rank() != 2 && p->rank() != 3)
        return c.fail(std::string(p == &x ? "input" : "skip") + " must be [B, S, H] or [S, H], got " + p->str());
    if (!x.rank_known || !skip.rank_known) {
      for (int i = 0; i < c.output_count(); ++i)
        c.set_output(i, dtype::float32, sym_shape::unknown_rank());
      return ok();
    }
    const dim h = x[x.rank() - 1], hs = skip[skip.rank() - 1];
    auto out = broadcast(x, skip);
    if (!out.ok() || (h.known() && hs.known() && h.value() != hs.value()))
      return c.fail("skip " + skip.str() + " does not broadcast to input " + x.str() + " with the same last dim");
    for (int i : {2, 3, 4}) {
      if (!c.has_input(i)) continue;
      const sym_shape& v = c.input_shape(i);
      if (v.rank_known && (v.rank() != 1 || (v[0].known() && h.known() && v[0].value() != h.value())))
        return c.fail(std::string(i == 2 ? "gamma" : i == 3 ? "beta" : "bias") + " must be [" + h.str() +
                      "], got " + v.str());
    }
    c.set_output(0, dtype::float32, *out);
    if (c.output_count() > 3) c.set_output(3, dtype::float32, *out);
    std::vector<dim> stat(out->dims.begin(), out->dims.end() - 1);
    stat.push_back(dim(1));
    for (int i = 1; i < std::min(c.output_count(), 3); ++i) c.set_output(i, dtype::float32, sym_shape(stat));
    return ok();
  }
};

}  // namespace onyx::ops
