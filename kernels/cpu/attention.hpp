// kernels/cpu/attention.hpp: Attention (23+) on the CPU.
//
// Per (batch, q head), split over the pool: S = scale * Q_h K_h^T by SGEMM
// (Q read in place with its row stride, 3D or 4D), softcap through the ISA
// tanh, the additive bias built one row at a time (mask, causal frontier,
// window, nonpad), the ISA softmax row kernel, then Y_h = P V_h by SGEMM
// written straight into Y's layout. Float32 K and V without a cache are read
// in place with their row stride (the head split a fused BERT attention
// never makes); with past or present they are gathered once into float
// [B, Hkv, T, D] buffers, which also feed present_key/value. With no causal
// frontier, window, softcap or scores output, and a few query rows or more,
// blocks of the micro-kernel's mr query rows run straight through the ISA
// kernels with every operand in L1 (the block path below).
// Everything is computed in float32; float16/bfloat16 inputs are widened
// once and outputs narrowed once. One instantiation serves every dtype: the
// typed work is confined to the widening/narrowing loops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/cpu/sgemm.hpp"
#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/ops/attention.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::attention_detail {

/// Gathers past (4D) and new (3D or 4D) keys or values into [B, H, P+S, D].
inline std::vector<float> gather_cache(const tensor* past, const tensor& now, std::int64_t B, std::int64_t H,
                                       std::int64_t S, std::int64_t D) {
  const std::int64_t P = past ? past->dim(2) : 0, T = P + S;
  std::vector<float> out(static_cast<std::size_t>(B * H * T * D));
  std::vector<float> tmp(static_cast<std::size_t>(now.size()));
  onyx::widen(now, std::span<float>(tmp));
  std::vector<float> ptmp(past ? static_cast<std::size_t>(past->size()) : 0);
  if (past) onyx::widen(*past, std::span<float>(ptmp));
  const bool three_d = now.rank() == 3;
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t h = 0; h < H; ++h) {
      float* dst = out.data() + (b * H + h) * T * D;
      if (P) std::copy_n(ptmp.data() + (b * H + h) * P * D, P * D, dst);
      for (std::int64_t s = 0; s < S; ++s) {
        const float* src = three_d ? tmp.data() + (b * S + s) * H * D + h * D : tmp.data() + ((b * H + h) * S + s) * D;
        std::copy_n(src, D, dst + (P + s) * D);
      }
    }
  return out;
}

inline status attention(const call<ops::Attention>& c) {
  const auto& a = c.attrs();
  const tensor &q = c.input(0), &k = c.input(1), &v = c.input(2);
  const bool three_d = q.rank() == 3;
  const std::int64_t B = q.dim(0);
  std::int64_t Hq, Hkv, Sq, Skv, D, Dv;
  if (three_d) {
    Hq = *a.q_num_heads, Hkv = *a.kv_num_heads, Sq = q.dim(1), Skv = k.dim(1);
    D = q.dim(2) / Hq, Dv = v.dim(2) / Hkv;
    if (q.dim(2) % Hq || k.dim(2) != Hkv * D || v.dim(2) % Hkv)
      return status(errc::invalid_argument, "Attention: hidden sizes of Q " + to_string(q.shape()) + ", K " +
                                                to_string(k.shape()) + ", V " + to_string(v.shape()) +
                                                " do not split into the given head counts");
  } else {
    Hq = q.dim(1), Hkv = k.dim(1), Sq = q.dim(2), Skv = k.dim(2), D = q.dim(3), Dv = v.dim(3);
    if (k.dim(3) != D || v.dim(1) != Hkv || v.dim(2) != Skv)
      return status(errc::invalid_argument, "Attention: K " + to_string(k.shape()) + " and V " +
                                                to_string(v.shape()) + " do not match Q " + to_string(q.shape()));
  }
  if (Hkv <= 0 || Hq % Hkv) return status(errc::invalid_argument, "Attention: q heads must be a multiple of kv heads");
  const tensor* past_k = c.has_input(4) ? &c.input(4) : nullptr;
  const tensor* past_v = c.has_input(5) ? &c.input(5) : nullptr;
  const std::int64_t P = past_k ? past_k->dim(2) : 0, T = P + Skv;
  if (past_k && (past_k->rank() != 4 || past_k->dim(0) != B || past_k->dim(1) != Hkv || past_k->dim(3) != D ||
                 !past_v || past_v->rank() != 4 || past_v->dim(2) != P || past_v->dim(3) != Dv))
    return status(errc::invalid_argument, "Attention: past_key/past_value shapes do not match K and V");

  // K and V in place (with their row stride) when they are float32, there is
  // no past and no present is asked for; else gathered into [B, Hkv, T, D].
  const bool in_place = !past_k && !c.has_output(1) && !c.has_output(2) && k.type() == dtype::float32 &&
                        v.type() == dtype::float32;
  std::vector<float> kf, vf;
  if (!in_place) {
    kf = gather_cache(past_k, k, B, Hkv, Skv, D);
    vf = gather_cache(past_v, v, B, Hkv, Skv, Dv);
    if (c.has_output(1)) onyx::narrow(std::span<const float>(kf), c.output(1));
    if (c.has_output(2)) onyx::narrow(std::span<const float>(vf), c.output(2));
  }
  const float* kbase = in_place ? k.data<float>() : kf.data();
  const float* vbase = in_place ? v.data<float>() : vf.data();
  const bool kv_3d = in_place && three_d;
  const std::int64_t ldk = kv_3d ? Hkv * D : D, ldv = kv_3d ? Hkv * Dv : Dv;

  // Q in place when float32, else widened once.
  std::vector<float> qbuf;
  const float* qf = q.type() == dtype::float32 ? q.data<float>() : nullptr;
  if (!qf) {
    qbuf.resize(static_cast<std::size_t>(q.size()));
    onyx::widen(q, std::span<float>(qbuf));
    qf = qbuf.data();
  }
  tensor& y = c.output(0);
  std::vector<float> ybuf;
  float* yf = y.type() == dtype::float32 ? y.data<float>() : nullptr;
  if (!yf) {
    ybuf.resize(static_cast<std::size_t>(y.size()));
    yf = ybuf.data();
  }

  // attn_mask as an additive float bias, broadcast right-aligned to
  // [B, Hq, Sq, M] with M <= T (keys past M are masked).
  std::vector<float> mask;
  std::int64_t mstride[4] = {0, 0, 0, 0}, M = T;
  if (c.has_input(3)) {
    const tensor& m = c.input(3);
    if (m.rank() < 1 || m.rank() > 4)
      return status(errc::invalid_argument, "Attention: attn_mask must have rank 1-4, got " + to_string(m.shape()));
    mask.resize(static_cast<std::size_t>(m.size()));
    if (m.type() == dtype::boolean) {
      const bool* p = m.data<bool>();
      for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = p[i] ? 0.0f : -INFINITY;
    } else {
      onyx::widen(m, std::span<float>(mask));
    }
    const std::int64_t full[4] = {B, Hq, Sq, T};
    std::int64_t stride = 1;
    for (int d = 3, md = static_cast<int>(m.rank()) - 1; md >= 0; --d, --md) {
      const std::int64_t n = m.dim(md);
      if (d == 3) {
        M = n;
        if (n > T)
          return status(errc::invalid_argument, "Attention: attn_mask key length " + std::to_string(n) +
                                                    " exceeds the total key length " + std::to_string(T));
      } else if (n != 1 && n != full[d]) {
        return status(errc::invalid_argument,
                      "Attention: attn_mask " + to_string(m.shape()) + " does not broadcast to [" + std::to_string(B) +
                          "," + std::to_string(Hq) + "," + std::to_string(Sq) + "," + std::to_string(T) + "]");
      }
      mstride[d] = n == 1 ? 0 : stride;
      stride *= n;
    }
  }
  const std::int64_t* nonpad = c.has_input(6) ? c.input(6).data<std::int64_t>() : nullptr;
  if (nonpad && c.input(6).size() != B)
    return status(errc::invalid_argument, "Attention: nonpad_kv_seqlen must have " + std::to_string(B) + " values");

  const float scale = a.scale ? *a.scale : 1.0f / std::sqrt(static_cast<float>(D));
  const float cap = a.softcap;
  const int mode = static_cast<int>(a.qk_matmul_output_mode);
  std::vector<float> qkbuf(c.has_output(3) ? static_cast<std::size_t>(B * Hq * Sq * T) : 0);
  const std::int64_t ldq = three_d ? Hq * D : D, ldy = three_d ? Hq * Dv : Dv;
  const auto& isa_table = isa::active();

  // The common case: no causal frontier, window, nonpad or softcap, and a
  // mask (if any) that covers every key contiguously.
  const bool plain = !a.is_causal && a.left_window_size < 0 && a.right_window_size < 0 && !nonpad && cap <= 0 &&
                     (mask.empty() || (M == T && (mstride[3] == 1 || T == 1)));

  // Per mask row (plain case): whether every key is masked (the row's
  // softmax is then a zero row) and whether the row adds nothing.
  std::vector<char> row_hidden, row_zero;
  if (plain && !mask.empty() && mstride[3] == 1 && T > 0) {
    const std::size_t rows = mask.size() / static_cast<std::size_t>(T);
    row_hidden.resize(rows, 1);
    row_zero.resize(rows, 1);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j < T; ++j) {
        const float v = mask[r * T + j];
        row_hidden[r] = row_hidden[r] && v == -INFINITY;
        row_zero[r] = row_zero[r] && v == 0.0f;
      }
  }

  // Batch b and query head h of (b, h) = bh, and where that head's Q, K, V
  // (its kv head's) and Y rows start.
  struct head_rows {
    std::int64_t b, h;
    const float *q, *k, *v;
    float* y;
  };
  const auto head = [&](std::int64_t bh) {
    const std::int64_t b = bh / Hq, h = bh % Hq, hk = h / (Hq / Hkv);
    return head_rows{b,
                     h,
                     three_d ? qf + b * Sq * ldq + h * D : qf + bh * Sq * D,
                     kv_3d ? kbase + b * T * ldk + hk * D : kbase + (b * Hkv + hk) * T * D,
                     kv_3d ? vbase + b * T * ldv + hk * Dv : vbase + (b * Hkv + hk) * T * Dv,
                     three_d ? yf + b * Sq * ldy + h * Dv : yf + bh * Sq * Dv};
  };

  // The plain case with no scores output and a few rows of queries (a
  // prefill or an encoder; one query row is a GEMV, below) runs blocks of mr
  // query rows through the micro-kernel with every operand in L1: K^T and V
  // packed once per head, then per block Q's panel, S = scale Q K^T a tile
  // at a time, softmax with the mask row added (f32_softmax_rows) left
  // unscaled, P's panel, Y = P V, and Y's rows scaled by 1 / sum (Dv floats
  // a row instead of T).
  const int mr = isa_table.gemm_mr, nr = isa_table.gemm_nr;
  if (plain && qkbuf.empty() && Sq >= mr / 2 && T > 0) {
    const std::int64_t kt_panels = (T + nr - 1) / nr, v_panels = (Dv + nr - 1) / nr;
    const std::int64_t ldm = mask.empty() ? 0 : mstride[2];
    const bool mask_adds =
        !mask.empty() && (row_zero.empty() || std::find(row_zero.begin(), row_zero.end(), 0) != row_zero.end());
    parallel_for(c.pool(), B * Hq, 1, [&](std::int64_t lo, std::int64_t hi) {
      // One buffer per thread, each part on a 64-byte boundary.
      thread_local std::vector<float> buf;
      const auto up = [](std::int64_t n) { return static_cast<std::size_t>((n + 15) / 16 * 16); };
      const std::size_t kt_size = up(kt_panels * D * nr), v_size = up(v_panels * T * nr), q_size = up(mr * D),
                        s_size = up(mr * T);
      buf.resize(kt_size + v_size + q_size + 2 * s_size + up(mr) + 16);
      float* kt = buf.data() + (16 - reinterpret_cast<std::uintptr_t>(buf.data()) / sizeof(float) % 16) % 16;
      float *vp = kt + kt_size, *qp = vp + v_size, *s = qp + q_size, *pp = s + s_size, *inv = pp + s_size;
      isa::f32_gemm_params qk_params, pv_params;
      qk_params.alpha = scale;
      for (std::int64_t bh = lo; bh < hi; ++bh) {
        const auto [b, h, qh, kh, vh, yh] = head(bh);
        isa_table.f32_gemm_pack(kh, ldk, false, T, D, nr, kt, D * nr);  // B = K^T: (d, t) at kh[t * ldk + d]
        isa_table.f32_gemm_pack(vh, ldv, true, Dv, T, nr, vp, T * nr);  // B = V: (t, d) at vh[t * ldv + d]
        for (std::int64_t i0 = 0; i0 < Sq; i0 += mr) {
          const int m = static_cast<int>(std::min<std::int64_t>(mr, Sq - i0));
          isa_table.f32_gemm_pack(qh + i0 * ldq, ldq, false, m, D, mr, qp, D * mr);
          for (std::int64_t j0 = 0; j0 < T; j0 += nr)
            isa_table.f32_gemm(D, qp, kt + (j0 / nr) * D * nr, s + j0, T, m, static_cast<int>(std::min<std::int64_t>(nr, T - j0)),
                               qk_params);
          // Softmax of the block's rows: runs of rows with an attendable key
          // together; a row whose mask hides every key is a zero row.
          const float* mrow0 = mask.empty() ? nullptr : mask.data() + b * mstride[0] + h * mstride[1] + i0 * ldm;
          const auto hidden = [&](std::int64_t i) {
            if (!mrow0 || row_hidden.empty()) return mrow0 && T == 1 && s[i * T] + mrow0[i * ldm] == -INFINITY;
            return row_hidden[static_cast<std::size_t>(mrow0 + i * ldm - mask.data()) / static_cast<std::size_t>(T)] != 0;
          };
          for (std::int64_t i = 0; i < m;) {
            if (hidden(i)) {
              std::fill_n(s + i * T, T, 0.0f);
              inv[i] = 0.0f;
              ++i;
              continue;
            }
            std::int64_t e = i + 1;
            while (e < m && !hidden(e)) ++e;
            isa_table.f32_softmax_rows(s + i * T, T, s + i * T, T, e - i, T, mask_adds ? mrow0 + i * ldm : nullptr, ldm,
                                       inv + i);
            i = e;
          }
          isa_table.f32_gemm_pack(s, T, false, m, T, mr, pp, T * mr);
          float* yb = yh + i0 * ldy;
          for (std::int64_t j0 = 0; j0 < Dv; j0 += nr)
            isa_table.f32_gemm(T, pp, vp + (j0 / nr) * T * nr, yb + j0, ldy, m,
                               static_cast<int>(std::min<std::int64_t>(nr, Dv - j0)), pv_params);
          for (int i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < Dv; ++j) yb[i * ldy + j] *= inv[i];
        }
      }
    });
    if (!ybuf.empty()) onyx::narrow(std::span<const float>(ybuf), y);
    return ok();
  }

  parallel_for(c.pool(), B * Hq, 1, [&](std::int64_t lo, std::int64_t hi) {
    std::vector<float> s(static_cast<std::size_t>(Sq * T)), bias(static_cast<std::size_t>(T));
    for (std::int64_t bh = lo; bh < hi; ++bh) {
      const auto [b, h, qh, kh, vh, yh] = head(bh);
      float* qk = qkbuf.empty() ? nullptr : qkbuf.data() + bh * Sq * T;
      sgemm(false, true, Sq, T, D, scale, qh, ldq, kh, ldk, 0.0f, s.data(), T, nullptr);
      const std::int64_t offset = P ? P : nonpad ? nonpad[b] - Sq : 0;
      for (std::int64_t i = 0; i < Sq; ++i) {
        float* row = s.data() + i * T;
        if (qk && mode == 0) std::copy_n(row, T, qk + i * T);
        if (cap > 0) {
          for (std::int64_t j = 0; j < T; ++j) row[j] /= cap;
          isa_table.f32_tanh(row, row, T);
          for (std::int64_t j = 0; j < T; ++j) row[j] *= cap;
        }
        if (qk && mode == 1) std::copy_n(row, T, qk + i * T);
        const float* mrow = mask.empty() ? nullptr : mask.data() + b * mstride[0] + h * mstride[1] + i * mstride[2];
        if (plain) {  // only a full-length mask row (or none): add it, then softmax
          if (qk && mode <= 1) std::copy_n(row, T, qk + i * T);  // no softcap: modes 0 and 1 agree
          bool hidden = false;
          if (mrow && !row_hidden.empty()) {  // the row's flags, worked out once per mask row
            const std::size_t r = static_cast<std::size_t>(mrow - mask.data()) / static_cast<std::size_t>(T);
            hidden = row_hidden[r];
            if (!row_zero[r])
              for (std::int64_t j = 0; j < T; ++j) row[j] += mrow[j];
          } else if (mrow) {  // T == 1: one key
            row[0] += mrow[0];
            hidden = row[0] == -INFINITY;
          }
          if (qk && mode == 2) std::copy_n(row, T, qk + i * T);
          if (hidden)
            std::fill_n(row, T, 0.0f);  // no attendable key: a zero row, never NaN
          else
            isa_table.f32_softmax_rows(row, T, row, T, 1, T, nullptr, 0, nullptr);
          if (qk && mode == 3) std::copy_n(row, T, qk + i * T);
          continue;
        }
        const std::int64_t pos = i + offset;
        bool all_masked = true;
        for (std::int64_t j = 0; j < T; ++j) {
          float add = 0.0f;
          if (mrow) add = j < M ? mrow[j * mstride[3]] : -INFINITY;
          const bool hidden = (a.is_causal && j > pos) || (a.left_window_size >= 0 && pos - j > a.left_window_size) ||
                              (a.right_window_size >= 0 && j - pos > a.right_window_size) ||
                              (nonpad && j >= nonpad[b]);
          if (hidden) add = -INFINITY;
          bias[j] = add;
          all_masked = all_masked && add == -INFINITY;
        }
        for (std::int64_t j = 0; j < T; ++j) row[j] += bias[j];
        if (qk && mode == 2) std::copy_n(row, T, qk + i * T);
        float top = -INFINITY;
        for (std::int64_t j = 0; j < T; ++j) top = row[j] > top ? row[j] : top;
        if (all_masked || top == -INFINITY)
          std::fill_n(row, T, 0.0f);  // no attendable key: a zero row, never NaN
        else
          isa_table.f32_softmax_rows(row, T, row, T, 1, T, nullptr, 0, nullptr);
        if (qk && mode == 3) std::copy_n(row, T, qk + i * T);
      }
      sgemm(false, false, Sq, Dv, T, 1.0f, s.data(), T, vh, ldv, 0.0f, yh, ldy, nullptr);
    }
  });
  if (!ybuf.empty()) onyx::narrow(std::span<const float>(ybuf), y);
  if (c.has_output(3)) onyx::narrow(std::span<const float>(qkbuf), c.output(3));
  return ok();
}

}  // namespace onyx::kernels::cpu::attention_detail

namespace onyx {

template <> struct kernel<ops::Attention, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f16 | dtypes::bf16};
  template <ops::signature S> static status run(const call<ops::Attention>& c) {
    return kernels::cpu::attention_detail::attention(c);
  }
};

}  // namespace onyx
