// ops::Attention: scaled dot-product attention over heads,
//   Y = softmax(softcap(scale * Q K^T) + bias) V
// with Q [B, Hq, Sq, D] and K/V [B, Hkv, Skv, D/Dv] (or 3D [B, S, H*D] with
// q_num_heads/kv_num_heads), GQA/MQA by repeating each KV head Hq/Hkv times,
// an optional past cache concatenated before K/V (present_key/value outputs),
// a bias from attn_mask (bool: false = -inf; float: added; last dim may be
// shorter than the key length and is padded with -inf), is_causal (bottom-right
// aligned: key j is visible to query i iff j <= i + offset), nonpad_kv_seqlen
// (opset 24: keys past it are masked), and sliding windows (opset 25). A query
// row whose bias is -inf everywhere yields zeros. Output 3 is the QK product
// raw (mode 0), after softcap (1), after the bias (2) or after softmax (3).
// Opsets 23-latest (one struct: 24 and 25 only added the optional input and
// the window attributes). Kernel: float32, float16, bfloat16 (softmax always in
// float32, so softmax_precision is accepted and has no further effect).
// Tested in test/unit/attention_test.cpp and node/test_attention_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct Attention {
  static constexpr std::string_view domain = "", name = "Attention";
  static constexpr int since = 23, until = latest;
  static constexpr arity inputs{3, 7}, outputs{1, 4};
  static constexpr dtype_set T1 = dtypes::floats;
  static constexpr dtype_set T2 = dtypes::floats;
  static constexpr dtype_set U = dtypes::numeric | dtypes::boolean;
  struct attributes {
    std::int64_t is_causal = 0;
    std::optional<std::int64_t> q_num_heads, kv_num_heads;
    std::int64_t qk_matmul_output_mode = 0;
    std::optional<float> scale;
    float softcap = 0.0f;
    std::optional<std::int64_t> softmax_precision;
    std::int64_t left_window_size = -1, right_window_size = -1;
    static constexpr auto fields = std::tuple{
        field{"is_causal", &attributes::is_causal},
        field{"q_num_heads", &attributes::q_num_heads},
        field{"kv_num_heads", &attributes::kv_num_heads},
        field{"qk_matmul_output_mode", &attributes::qk_matmul_output_mode},
        field{"scale", &attributes::scale},
        field{"softcap", &attributes::softcap},
        field{"softmax_precision", &attributes::softmax_precision},
        field{"left_window_size", &attributes::left_window_size},
        field{"right_window_size", &attributes::right_window_size}};
  };

  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T1, "T1"));
    ONYX_TRY(require_type(c, 2, T2, "T2"));
    if (c.input_type(1) != c.input_type(0))
      return c.fail("K has type " + std::string(onyx::name(c.input_type(1))) + " but Q has " +
                    std::string(onyx::name(c.input_type(0))));
    if (c.has_input(3) && c.input_type(3) != dtype::boolean && c.input_type(3) != c.input_type(0))
      return c.fail("attn_mask must be bool or Q's type, got " + std::string(onyx::name(c.input_type(3))));
    if (c.has_input(4) != c.has_input(5)) return c.fail("past_key and past_value must be given together");
    if (c.has_input(6) && c.input_type(6) != dtype::int64) return c.fail("nonpad_kv_seqlen must be int64");
    if (a.qk_matmul_output_mode < 0 || a.qk_matmul_output_mode > 3)
      return c.fail("qk_matmul_output_mode must be 0-3, got " + std::to_string(a.qk_matmul_output_mode));
    const sym_shape &q = c.input_shape(0), &k = c.input_shape(1), &v = c.input_shape(2);
    const dtype t = c.input_type(0);
    auto unknown = [&] {
      for (int i = 0; i < c.output_count(); ++i) c.set_output(i, t, sym_shape::unknown_rank());
      return ok();
    };
    if (!q.rank_known || !k.rank_known || !v.rank_known) return unknown();
    if ((q.rank() != 3 && q.rank() != 4) || k.rank() != q.rank() || v.rank() != q.rank())
      return c.fail("Q, K and V must all be 3D or all 4D, got " + q.str() + ", " + k.str() + ", " + v.str());
    dim batch = q[0], hq, hkv, sq, skv, d, dv;
    if (q.rank() == 3) {
      if (!a.q_num_heads || !a.kv_num_heads || *a.q_num_heads <= 0 || *a.kv_num_heads <= 0)
        return c.fail("3D inputs need positive q_num_heads and kv_num_heads");
      hq = *a.q_num_heads, hkv = *a.kv_num_heads;
      sq = q[1], skv = k[1];
      d = floordiv(q[2], hq), dv = floordiv(v[2], hkv);
    } else {
      hq = q[1], hkv = k[1], sq = q[2], skv = k[2], d = q[3], dv = v[3];
    }
    if (hq.known() && hkv.known() && (hkv.value() <= 0 || hq.value() % hkv.value() != 0))
      return c.fail("q heads (" + hq.str() + ") must be a multiple of kv heads (" + hkv.str() + ")");
    dim past = 0;
    if (c.has_input(4)) {
      const sym_shape& pk = c.input_shape(4);
      if (pk.rank_known && pk.rank() != 4) return c.fail("past_key must be 4D, got " + pk.str());
      past = pk.rank_known ? pk[2] : dim::unknown();
    }
    const dim total = past + skv;
    if (q.rank() == 3)
      c.set_output(0, t, sym_shape({batch, sq, hq * dv}));
    else
      c.set_output(0, t, sym_shape({batch, hq, sq, dv}));
    if (c.output_count() > 1) c.set_output(1, t, sym_shape({batch, hkv, total, d}));
    if (c.output_count() > 2) c.set_output(2, c.input_type(2), sym_shape({batch, hkv, total, dv}));
    if (c.output_count() > 3) c.set_output(3, t, sym_shape({batch, hq, sq, total}));
    return ok();
  }
};

}  // namespace onyx::ops
