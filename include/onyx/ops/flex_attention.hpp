// ops::FlexAttention (ai.onnx.preview, opset 1): attention over rank-4 heads
// with user subgraphs at two stages,
//   S = (Q sqrt(scale)) (K sqrt(scale))^T,  S = score_mod(S),
//   P = softmax(S, last axis),               P = prob_mod(P),   Y = P V
// with Q [B, Hq, L, E], K [B, Hkv, S, E], V [B, Hkv, S, Ev] and Y
// [B, Hq, L, Ev]. scale defaults to 1/sqrt(E). GQA: query head h reads K/V
// head h / (Hq / Hkv). Masks, soft caps, biases and relative positions are
// written in score_mod (a masked score is -inf); each modifier takes one
// [B, Hq, L, S] tensor of the softmax precision and returns one of the same
// type and shape. Softmax precision: the attribute (float32, float16,
// bfloat16 or float64) or by default float64 for float64 inputs, float32
// otherwise. As in the spec's reference, Q and K are scaled and their product
// rounded in the input type, S and P and P V are computed in the softmax
// precision, and a row whose scores are all -inf gives NaN (Softmax's
// definition; use prob_mod or a finite mask value to avoid it).
// T1: float16, bfloat16, float32, float64. Kernel: kernels/cpu/flex_attention.hpp.
// Tested in test/unit/flex_attention_test.cpp and node/test_flexattention_*.
#pragma once

#include "onyx/ops/control.hpp"

namespace onyx::ops {

struct FlexAttention {
  static constexpr std::string_view domain = "ai.onnx.preview", name = "FlexAttention";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats;
  struct attributes {
    std::optional<float> scale;
    std::optional<std::int64_t> softmax_precision;
    std::shared_ptr<const graph::graph> score_mod, prob_mod;
    static constexpr auto fields =
        std::tuple{field{"scale", &attributes::scale}, field{"softmax_precision", &attributes::softmax_precision},
                   field{"score_mod", &attributes::score_mod}, field{"prob_mod", &attributes::prob_mod}};
  };

  /// The element type of the scores and probabilities (the modifiers' type).
  static dtype softmax_type(const attributes& a, dtype input) {
    if (a.softmax_precision) return static_cast<dtype>(*a.softmax_precision);
    return input == dtype::float64 ? dtype::float64 : dtype::float32;
  }

  static status infer(const attributes& a, infer_context& c) {
    for (int i = 0; i < 3; ++i) ONYX_TRY(require_type(c, i, T1, "T1"));
    const dtype t = c.input_type(0);
    if (c.input_type(1) != t || c.input_type(2) != t)
      return c.fail("Q, K and V must have one type, got " + std::string(onyx::name(t)) + ", " +
                    std::string(onyx::name(c.input_type(1))) + ", " + std::string(onyx::name(c.input_type(2))));
    if (a.softmax_precision && !dtypes::floats.contains(static_cast<dtype>(*a.softmax_precision)))
      return c.fail("softmax_precision must be float32, float16, bfloat16 or float64 (1, 10, 16 or 11), got " +
                    std::to_string(*a.softmax_precision));
    const dtype p = softmax_type(a, t);
    if (a.score_mod) ONYX_TRY(detail::check_body(c, a.score_mod, "score_mod", 1, 1, true));
    if (a.prob_mod) ONYX_TRY(detail::check_body(c, a.prob_mod, "prob_mod", 1, 1, true));
    const sym_shape &q = c.input_shape(0), &k = c.input_shape(1), &v = c.input_shape(2);
    sym_shape scores = sym_shape::unknown_rank();
    if (q.rank_known && k.rank_known && v.rank_known) {
      if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
        return c.fail("Q, K and V must be 4D, got " + q.str() + ", " + k.str() + ", " + v.str());
      if (k[1].known() && v[1].known() && k[1].value() != v[1].value())
        return c.fail("K " + k.str() + " and V " + v.str() + " must have the same number of heads");
      if (k[2].known() && v[2].known() && k[2].value() != v[2].value())
        return c.fail("K " + k.str() + " and V " + v.str() + " must have the same sequence length");
      if (q[3].known() && k[3].known() && q[3].value() != k[3].value())
        return c.fail("Q " + q.str() + " and K " + k.str() + " must have the same head size");
      if (q[1].known() && k[1].known() && (k[1].value() <= 0 || q[1].value() % k[1].value() != 0))
        return c.fail("q heads (" + q[1].str() + ") must be a multiple of kv heads (" + k[1].str() + ")");
      c.set_output(0, t, sym_shape({q[0], q[1], q[2], v[3]}));
      scores = sym_shape({q[0], q[1], q[2], k[2]});
    } else {
      c.set_output(0, t, sym_shape::unknown_rank());
    }
    // The modifiers: inferred for this node's score shape, and their output
    // must keep the softmax type.
    auto check_mod = [&](const std::shared_ptr<const graph::graph>& body, std::string_view what) -> status {
      if (!body) return ok();
      const value_type in{value_kind::tensor, p, scores};
      ONYX_ASSIGN(auto outs, detail::infer_body(c, *body, std::span<const value_type>(&in, 1)));
      if (outs[0].type != dtype::undefined && outs[0].type != p)
        return c.fail(std::string(what) + " returns " + std::string(onyx::name(outs[0].type)) + ", expected " +
                      std::string(onyx::name(p)) + " (the softmax precision)");
      return ok();
    };
    ONYX_TRY(check_mod(a.score_mod, "score_mod"));
    ONYX_TRY(check_mod(a.prob_mod, "prob_mod"));
    return ok();
  }
};

}  // namespace onyx::ops
