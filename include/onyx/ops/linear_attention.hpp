// ops::LinearAttention: recurrent linear attention over query/key/value
// (B, T, heads * dim). Per step t and KV head, the (d_k x d_v) state is
// decayed by exp(decay_t) (update_rule gated, gated_delta), the value is
// replaced by beta_t * (v_t - state^T k_t) (delta, gated_delta), then
// state += k_t v_t^T; each query head reads scale * q_t^T state of its KV
// head (grouped-query: q_num_heads / kv_num_heads query heads per KV head).
// scale 0 means 1 / sqrt(d_k). chunk_size is a tuning hint with no effect.
// Opsets 27-latest. Kernel (kernels/cpu/linear_attention.hpp): T and S any
// of float32, float16, bfloat16, computed in float32. Tested in
// test/unit/linear_attention_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct LinearAttention {
  static constexpr std::string_view domain = "", name = "LinearAttention";
  static constexpr int since = 27, until = latest;
  static constexpr arity inputs{3, 6}, outputs{1, 2};
  // S: the state's type, past_state's or T without one. Kernels are keyed by
  // T; the state converts through float32 at run time.
  static constexpr dtype_set T = dtypes::f32 | dtypes::f16 | dtypes::bf16, S = T;
  struct attributes {
    std::string update_rule = "gated_delta";
    float scale = 0.0f;
    std::int64_t q_num_heads = 0, kv_num_heads = 0, chunk_size = 64;
    static constexpr auto fields =
        std::tuple{field{"update_rule", &attributes::update_rule}, field{"scale", &attributes::scale},
                   field{"q_num_heads", &attributes::q_num_heads, true},
                   field{"kv_num_heads", &attributes::kv_num_heads, true},
                   field{"chunk_size", &attributes::chunk_size}};
    bool gated() const { return update_rule == "gated" || update_rule == "gated_delta"; }
    bool delta() const { return update_rule == "delta" || update_rule == "gated_delta"; }
  };

  static status infer(const attributes& a, infer_context& c) {
    if (a.update_rule != "linear" && a.update_rule != "gated" && a.update_rule != "delta" &&
        a.update_rule != "gated_delta")
      return c.fail("update_rule must be linear, gated, delta or gated_delta, not \"" + a.update_rule + "\"");
    if (a.q_num_heads <= 0 || a.kv_num_heads <= 0 || a.q_num_heads % a.kv_num_heads != 0)
      return c.fail("q_num_heads (" + std::to_string(a.q_num_heads) +
                    ") must be a positive multiple of kv_num_heads (" + std::to_string(a.kv_num_heads) + ")");
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i : {1, 2, 4, 5})
      if (i < c.input_count() && c.has_input(i) && c.input_type(i) != c.input_type(0))
        return c.fail("input " + std::to_string(i) + " must have query's type");
    if (a.gated() != (c.input_count() > 4 && c.has_input(4)))
      return c.fail("update_rule " + a.update_rule + (a.gated() ? " needs" : " forbids") + " the decay input");
    if (a.delta() != (c.input_count() > 5 && c.has_input(5)))
      return c.fail("update_rule " + a.update_rule + (a.delta() ? " needs" : " forbids") + " the beta input");
    const bool has_past = c.input_count() > 3 && c.has_input(3);
    if (has_past) ONYX_TRY(require_type(c, 3, S, "S"));
    const dtype state_type = has_past ? c.input_type(3) : c.input_type(0);

    const sym_shape &q = c.input_shape(0), &k = c.input_shape(1), &v = c.input_shape(2);
    for (const sym_shape* s : {&q, &k, &v})
      if (s->rank_known && s->rank() != 3) return c.fail("query, key and value must be (B, T, heads * dim)");
    dim d_k = dim::unknown(), d_v = dim::unknown();
    if (q.rank_known && q[2].known()) {
      if (q[2].value() % a.q_num_heads) return c.fail("query's last dim is not a multiple of q_num_heads");
      d_k = dim(q[2].value() / a.q_num_heads);
    }
    if (v.rank_known && v[2].known()) {
      if (v[2].value() % a.kv_num_heads) return c.fail("value's last dim is not a multiple of kv_num_heads");
      d_v = dim(v[2].value() / a.kv_num_heads);
    }
    const dim batch = q.rank_known ? q[0] : dim::unknown(), steps = q.rank_known ? q[1] : dim::unknown();
    c.set_output(0, c.input_type(0),
                 sym_shape({batch, steps, d_v.known() ? dim(d_v.value() * a.q_num_heads) : dim::unknown()}));
    if (c.output_count() > 1) c.set_output(1, state_type, sym_shape({batch, dim(a.kv_num_heads), d_k, d_v}));
    return ok();
  }
};

}  // namespace onyx::ops
