// ops::CausalConvWithState: a stateful causal depthwise 1-D convolution. Per
// batch b and channel c, the sequence past_state[b, c] (k - 1 values, zeros
// when absent) followed by input[b, c] is convolved with weight[c, 0] (valid
// padding) plus bias[c], then optionally passed through SiLU; present_state
// is the last k - 1 values of that sequence.
// Opsets 27-latest. Kernel (kernels/cpu/causal_conv_with_state.hpp): float32,
// float16, bfloat16 (accumulated in float). Tested in
// test/unit/causal_conv_with_state_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct CausalConvWithState {
  static constexpr std::string_view domain = "", name = "CausalConvWithState";
  static constexpr int since = 27, until = latest;
  static constexpr arity inputs{2, 4}, outputs{1, 2};
  static constexpr dtype_set T = dtypes::f32 | dtypes::f16 | dtypes::bf16;
  struct attributes {
    std::string activation = "none";
    static constexpr auto fields = std::tuple{field{"activation", &attributes::activation}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.activation != "none" && a.activation != "silu" && a.activation != "swish")
      return c.fail("activation must be none, silu or swish, not \"" + a.activation + "\"");
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i = 1; i < c.input_count(); ++i)
      if (c.has_input(i) && c.input_type(i) != c.input_type(0))
        return c.fail("input " + std::to_string(i) + " must have the input's type");
    const sym_shape &x = c.input_shape(0), &w = c.input_shape(1);
    if (x.rank_known && x.rank() != 3) return c.fail("input must be (batch, channels, length), not " + x.str());
    if (w.rank_known && (w.rank() != 3 || (w[1].known() && w[1].value() != 1)))
      return c.fail("weight must be (channels, 1, k), not " + w.str());
    if (x.rank_known && w.rank_known && x[1].known() && w[0].known() && x[1].value() != w[0].value())
      return c.fail("weight " + w.str() + " does not have the input's " + std::to_string(x[1].value()) + " channels");
    c.set_output(0, c.input(0));
    if (c.output_count() > 1) {
      const dim state = w.rank_known && w[2].known() ? dim(w[2].value() - 1) : dim::unknown();
      c.set_output(1, c.input_type(0), x.rank_known ? sym_shape({x[0], x[1], state}) : sym_shape::unknown_rank());
    }
    return ok();
  }
};

}  // namespace onyx::ops
