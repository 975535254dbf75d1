// kernels/cuda/attention.hpp: kernel<ops::Attention, cuda> (opset 23+).
//
// Per group of heads, three launches:
//   scores = scale * Q_h K_h^T    strided batched gemm over the heads, into scratch
//   p = softmax(scores + bias)    attention_softmax (attention.cu), in place
//   Y_h = p V_h                   strided batched gemm, written in Y's layout
// Q, K, V and Y are read and written in place with their row pitch: for 3-D
// [B, S, H * D] head h of batch b starts at b * S * H * D + h * D with pitch
// H * D; for 4-D [B, H, S, D] at (b * H + h) * S * D with pitch D. When one
// head stride also steps across batches (4-D, same head count for Q and
// K/V) a gemm covers the heads of several batches at once; otherwise (3-D,
// the BERT form fuse_attention produces) each batch element gets its own two
// gemms, and one softmax launch serves all the batch elements whose scores
// the scratch holds (`chunk`, capped at 64 MiB of scores). Grouped heads
// (GQA/MQA) run one gemm pair per kv head, its query heads batched with a K
// and V stride of 0.
// The scores have the inputs' type (float16 scores for float16 inputs,
// accumulated and normalized in float); float32 and float16.
// Not implemented on the GPU (`accepts` refuses such a node, which then runs
// on the CPU; run reports errc::unsupported if handed one): past_key /
// past_value, nonpad_kv_seqlen, softcap, the qk_matmul_output output, and V
// of another type than Q. present_key / present_value are K and V in
// [B, H, S, D] (one copy each).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/cuda/common.hpp"
#include "kernels/cuda/transformer_launch.hpp"
#include "onyx/core/message.hpp"
#include "onyx/ops/attention.hpp"

namespace onyx::kernels::cuda {

/// Attention's shapes and how many batch elements one pass covers.
struct attention_plan {
  bool three_d = false;
  std::int64_t B = 0, Hq = 0, Hkv = 0, Sq = 0, Skv = 0, D = 0, Dv = 0;
  std::int64_t chunk = 1;  // batch elements whose scores the scratch holds
  std::size_t scratch_bytes = 0;
};

/// The bytes of scores scratch one pass may use: bounds the arena a large
/// batch would otherwise need (64 x 12 heads x 512 x 512 float32: 805 MB).
inline constexpr std::size_t attention_scratch_budget = std::size_t{64} << 20;

inline result<attention_plan> attention_plan_of(dtype t, const extents& q, const extents& k, const extents& v,
                                                const ops::Attention::attributes& a) {
  attention_plan p;
  if ((q.size() != 3 && q.size() != 4) || k.size() != q.size() || v.size() != q.size())
    return failure(errc::invalid_argument, "Attention: Q [", to_string(q), "], K [", to_string(k), "] and V [",
                   to_string(v), "] must all be 3-D or all 4-D");
  p.three_d = q.size() == 3;
  p.B = q[0];
  if (p.three_d) {
    if (!a.q_num_heads || !a.kv_num_heads || *a.q_num_heads <= 0 || *a.kv_num_heads <= 0)
      return failure(errc::invalid_argument, "Attention: 3-D inputs need positive q_num_heads and kv_num_heads");
    p.Hq = *a.q_num_heads, p.Hkv = *a.kv_num_heads;
    p.Sq = q[1], p.Skv = k[1];
    p.D = q[2] / p.Hq, p.Dv = v[2] / p.Hkv;
    if (q[2] % p.Hq || k[2] != p.Hkv * p.D || v[2] % p.Hkv || v[1] != p.Skv || k[0] != p.B || v[0] != p.B)
      return failure(errc::invalid_argument, "Attention: Q [", to_string(q), "], K [", to_string(k), "] and V [",
                     to_string(v), "] do not split into ", p.Hq, " query and ", p.Hkv, " key/value heads");
  } else {
    p.Hq = q[1], p.Hkv = k[1], p.Sq = q[2], p.Skv = k[2], p.D = q[3], p.Dv = v[3];
    if (k[3] != p.D || v[1] != p.Hkv || v[2] != p.Skv || k[0] != p.B || v[0] != p.B)
      return failure(errc::invalid_argument, "Attention: K [", to_string(k), "] and V [", to_string(v),
                     "] do not match Q [", to_string(q), "]");
  }
  if (p.Hkv <= 0 || p.Hq % p.Hkv)
    return failure(errc::invalid_argument, "Attention: ", p.Hq, " query heads are not a multiple of ", p.Hkv,
                   " key/value heads");
  const std::size_t per_batch = storage_bytes(t, p.Hq * p.Sq * p.Skv);
  if (per_batch > 0)
    p.chunk = std::clamp<std::int64_t>(static_cast<std::int64_t>(attention_scratch_budget / per_batch), 1,
                                       std::max<std::int64_t>(p.B, 1));
  p.scratch_bytes = per_batch * static_cast<std::size_t>(p.chunk);
  return p;
}

/// Element offsets of one head's rows in Q, K, V and Y: batch, head and row strides.
struct attention_strides {
  std::int64_t q_b, q_h, ldq, k_b, k_h, ldk, v_b, v_h, ldv, y_b, y_h, ldy;
};

inline attention_strides attention_strides_of(const attention_plan& p) {
  const std::int64_t Hq = p.Hq, Hkv = p.Hkv, Sq = p.Sq, Skv = p.Skv, D = p.D, Dv = p.Dv;
  if (p.three_d)
    return {Sq * Hq * D, D, Hq * D, Skv * Hkv * D, D, Hkv * D, Skv * Hkv * Dv, Dv, Hkv * Dv, Sq * Hq * Dv, Dv, Hq * Dv};
  return {Hq * Sq * D, Sq * D, D, Hkv * Skv * D, Skv * D, D, Hkv * Skv * Dv, Skv * Dv, Dv, Hq * Sq * Dv, Sq * Dv, Dv};
}

/// K or V (3-D or 4-D) as present_key / present_value [B, H, S, D].
inline status copy_present(const attention_plan& p, const tensor& from, tensor& to, std::int64_t d) {
  if (to.bytes() != from.bytes())
    return failure(errc::internal, "Attention: present output [", to_string(to.shape()), "] for [",
                   to_string(from.shape()), "]");
  if (!p.three_d) return copy(from.raw(), to.raw(), from.bytes());
  strided_view s;
  s.rank = 4;
  const std::int64_t dims[4] = {p.B, p.Hkv, p.Skv, d}, strides[4] = {p.Skv * p.Hkv * d, d, p.Hkv * d, 1};
  std::copy(dims, dims + 4, s.dims);
  std::copy(strides, strides + 4, s.strides);
  return copy_strided(static_cast<int>(storage_bytes(from.type(), 1)), from.raw(), to.raw(), s);
}

inline status attention(const call<ops::Attention>& c, dtype t) {
  const auto& at = c.attrs();
  const attention_plan& p = c.plan<attention_plan>();
  if (c.has_input(4) || c.has_input(5))
    return status(errc::unsupported, "Attention on the GPU: past_key / past_value (a KV cache) are not implemented");
  if (c.has_input(6))
    return status(errc::unsupported, "Attention on the GPU: nonpad_kv_seqlen is not implemented");
  if (at.softcap > 0.0f) return status(errc::unsupported, "Attention on the GPU: softcap is not implemented");
  if (c.has_output(3))
    return status(errc::unsupported, "Attention on the GPU: the qk_matmul_output output is not implemented");
  const tensor &q = c.input(0), &k = c.input(1), &v = c.input(2);
  if (v.type() != t)
    return failure(errc::unsupported, "Attention on the GPU: V of type ", name(v.type()), " with Q of type ",
                   name(t));
  if (c.has_output(1)) ONYX_TRY(copy_present(p, k, c.output(1), p.D));
  if (c.has_output(2)) ONYX_TRY(copy_present(p, v, c.output(2), p.Dv));
  tensor& y = c.output(0);
  if (y.size() == 0) return ok();
  if (p.Skv == 0) return zero(y.raw(), y.bytes());  // no keys: softmax over nothing weighs nothing
  if (c.scratch().size() < p.scratch_bytes)
    return failure(errc::internal, "Attention: ", c.scratch().size(), " bytes of scratch for ", p.scratch_bytes);

  // The mask as the softmax reads it: broadcast right-aligned to [B, Hq, Sq, T];
  // a last dim M < T hides the keys from M on.
  const std::int64_t T = p.Skv;
  attention_softmax_args sm;
  sm.t = t;
  sm.heads = p.Hq, sm.queries = p.Sq, sm.keys = T;
  sm.causal = at.is_causal != 0;
  sm.left_window = at.left_window_size, sm.right_window = at.right_window_size;
  if (c.has_input(3)) {
    const tensor& m = c.input(3);
    if (m.type() != dtype::boolean && m.type() != t)
      return failure(errc::invalid_argument, "Attention: attn_mask of type ", name(m.type()),
                     " (bool or Q's type expected)");
    if (m.rank() < 1 || m.rank() > 4)
      return failure(errc::invalid_argument, "Attention: attn_mask must have rank 1-4, got [", to_string(m.shape()),
                     "]");
    const std::int64_t full[4] = {p.B, p.Hq, p.Sq, T};
    std::int64_t stride = 1;
    for (int d = 3, md = static_cast<int>(m.rank()) - 1; md >= 0; --d, --md) {
      const std::int64_t n = m.dim(static_cast<std::size_t>(md));
      if (d == 3) {
        if (n > T)
          return failure(errc::invalid_argument, "Attention: attn_mask key length ", n,
                         " exceeds the total key length ", T);
        sm.mask_keys = n;
      } else if (n != 1 && n != full[d]) {
        return failure(errc::invalid_argument, "Attention: attn_mask [", to_string(m.shape()),
                       "] does not broadcast to [", p.B, ",", p.Hq, ",", p.Sq, ",", T, "]");
      }
      sm.mask_stride[d] = n == 1 ? 0 : stride;
      stride *= n;
    }
    sm.mask = m.raw();
    sm.mask_type = m.type();
  }

  const float scale = at.scale ? *at.scale : 1.0f / std::sqrt(static_cast<float>(p.D));
  const attention_strides st = attention_strides_of(p);
  const std::int64_t G = p.Hq / p.Hkv;  // query heads per key/value head
  // One head stride that also steps from batch to batch: heads of several
  // batch elements in one gemm.
  const bool across_batches = G == 1 && st.q_b == p.Hq * st.q_h && st.k_b == p.Hq * st.k_h &&
                              st.v_b == p.Hq * st.v_h && st.y_b == p.Hq * st.y_h;
  const std::size_t width = storage_bytes(t, 1);
  const auto* qp = static_cast<const std::byte*>(q.raw());
  const auto* kp = static_cast<const std::byte*>(k.raw());
  const auto* vp = static_cast<const std::byte*>(v.raw());
  auto* yp = static_cast<std::byte*>(y.raw());
  auto* sp = c.scratch().data();
  const auto at_elem = [&](auto* base, std::int64_t offset) { return base + static_cast<std::size_t>(offset) * width; };

  // The products for `count` query heads from head h0 of batch b (running on
  // into the next batches when across_batches), whose scores start at row
  // block `slot` of the scratch; key/value head hk0, advancing with the query
  // head when kv_step is 1, shared when it is 0.
  struct heads {
    std::int64_t b, h0, count, hk0, kv_step, slot;
  };
  const auto qk = [&](const heads& hs) {
    gemm_args g;
    g.t = t;
    g.trans_b = true;
    g.m = p.Sq, g.n = T, g.k = p.D;
    g.alpha = scale;
    g.a = at_elem(qp, hs.b * st.q_b + hs.h0 * st.q_h), g.lda = st.ldq;
    g.b = at_elem(kp, hs.b * st.k_b + hs.hk0 * st.k_h), g.ldb = st.ldk;
    g.c = at_elem(sp, hs.slot * p.Sq * T), g.ldc = T;
    g.batch = hs.count, g.stride_a = st.q_h, g.stride_b = hs.kv_step * st.k_h, g.stride_c = p.Sq * T;
    return gemm(g);
  };
  const auto pv = [&](const heads& hs) {
    gemm_args g;
    g.t = t;
    g.m = p.Sq, g.n = p.Dv, g.k = T;
    g.a = at_elem(sp, hs.slot * p.Sq * T), g.lda = T;
    g.b = at_elem(vp, hs.b * st.v_b + hs.hk0 * st.v_h), g.ldb = st.ldv;
    g.c = at_elem(yp, hs.b * st.y_b + hs.h0 * st.y_h), g.ldc = st.ldy;
    g.batch = hs.count, g.stride_a = p.Sq * T, g.stride_b = hs.kv_step * st.v_h, g.stride_c = st.y_h;
    return gemm(g);
  };
  // The gemm calls of batch elements [b0, b0 + n).
  const auto for_heads = [&](std::int64_t b0, std::int64_t n, auto&& f) -> status {
    if (across_batches) return f(heads{b0, 0, n * p.Hq, 0, 1, 0});
    for (std::int64_t i = 0; i < n; ++i) {
      if (G == 1) {
        ONYX_TRY(f(heads{b0 + i, 0, p.Hq, 0, 1, i * p.Hq}));
        continue;
      }
      for (std::int64_t g = 0; g < p.Hkv; ++g) ONYX_TRY(f(heads{b0 + i, g * G, G, g, 0, i * p.Hq + g * G}));
    }
    return ok();
  };

  for (std::int64_t b0 = 0; b0 < p.B; b0 += p.chunk) {
    const std::int64_t n = std::min(p.chunk, p.B - b0);
    if (p.D == 0)  // Q K^T of empty rows: all scores 0 (cuBLAS takes no zero-width pitch)
      ONYX_TRY(zero(sp, storage_bytes(t, n * p.Hq * p.Sq * T)));
    else
      ONYX_TRY(for_heads(b0, n, qk));
    sm.scores = sp;
    sm.first_batch = b0, sm.batches = n;
    ONYX_TRY(attention_softmax(sm));
    ONYX_TRY(for_heads(b0, n, pv));
  }
  return ok();
}

}  // namespace onyx::kernels::cuda

namespace onyx {

template <>
struct kernel<ops::Attention, cuda> {
  static constexpr std::array types{kernels::cuda::floats};
  /// What the GPU kernel implements; other Attention nodes run on the CPU.
  static bool accepts(const prepare_info<ops::Attention>& p) {
    auto present = [&](int i) { return i < p.input_count() && p.input(i).kind != value_kind::none; };
    return !present(4) && !present(5) && !present(6) && p.attrs().softcap <= 0.0f && !p.wants_output(3) &&
           p.input(2).type == p.input(0).type;
  }
  template <ops::signature S>
  static result<planned<kernels::cuda::attention_plan>> plan(const plan_info<ops::Attention>& p) {
    planned<kernels::cuda::attention_plan> r;
    ONYX_ASSIGN(r.plan, kernels::cuda::attention_plan_of(S[0], p.input_shape(0), p.input_shape(1),
                                                         p.input_shape(2), p.attrs()));
    r.scratch_bytes = r.plan.scratch_bytes;
    return r;
  }
  template <ops::signature S>
  static status run(const call<ops::Attention>& c) {
    return kernels::cuda::attention(c, S[0]);
  }
};

}  // namespace onyx
