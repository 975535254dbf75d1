// kernels/cpu/flex_attention.hpp: FlexAttention (ai.onnx.preview 1) on the CPU.
//
// The modifiers see the whole [B, Hq, L, S] score (or probability) tensor at
// once, so the stages run over whole tensors: (1) per (batch, q head), split
// over the pool, the scaled Q and K of that head multiplied (SGEMM in float,
// a plain loop in double), each score rounded to the input type; (2) the
// scores stored in the softmax precision and handed to score_mod; (3) a
// softmax per row in that precision; (4) prob_mod; (5) per (batch, q head)
// Y = P V in the softmax precision, narrowed to the output type. Arithmetic
// is in float for float32/float16/bfloat16 and double for float64 (A below,
// for the input side; P for the softmax side), so a float16 model rounds
// where the reference rounds: Q and K after scaling, each score, and the
// output; an explicit float16/bfloat16 softmax precision rounds the scores
// and probabilities handed to the modifiers and the softmax result.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/control.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/flex_attention.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::flex_attention_detail {

/// x rounded to dtype `t` (float16 or bfloat16) and back; else x.
template <class A>
A round_to(dtype t, A x) {
  if (t == dtype::float16) return static_cast<A>(to_float(to_float16(static_cast<float>(x))));
  if (t == dtype::bfloat16) return static_cast<A>(to_float(to_bfloat16(static_cast<float>(x))));
  return x;
}

/// C[M, N] = A[M, K] * op(B), op(B) = B^T ([N, K]) when `trans_b`, else B ([K, N]).
template <class A>
void matmul(bool trans_b, std::int64_t M, std::int64_t N, std::int64_t K, const A* a, const A* b, A* c) {
  if constexpr (std::is_same_v<A, float>) {
    sgemm(false, trans_b, M, N, K, 1.0f, a, K, b, trans_b ? K : N, 0.0f, c, N, nullptr);
  } else {
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        A sum = 0;
        for (std::int64_t k = 0; k < K; ++k) sum += a[i * K + k] * (trans_b ? b[j * K + k] : b[k * N + j]);
        c[i * N + j] = sum;
      }
  }
}

/// Runs modifier `body` on `x` and returns its result, checked to keep
/// `x`'s type and shape.
inline result<tensor> modify(const call<ops::FlexAttention>& c, const graph::graph* body, std::string_view what,
                             tensor x) {
  const int index = c.context().subgraph_index(body);
  if (index < 0) return status(errc::internal, std::string(what) + " is not among the node's subgraphs");
  const dtype t = x.type();
  const extents shape = x.shape();
  std::vector<value> ins{value(std::move(x))}, outs;
  ONYX_TRY(c.context().run_subgraph(index, ins, outs));
  if (outs.size() != 1 || !outs[0].is_tensor())
    return status(errc::invalid_argument, std::string(what) + " must return one tensor");
  tensor y = outs[0].as_tensor();
  if (y.type() != t || y.shape() != shape)
    return status(errc::invalid_argument, std::string(what) + " returned a " + std::string(name(y.type())) + " " +
                                              to_string(y.shape()) + " tensor, expected " + std::string(name(t)) + " " +
                                              to_string(shape) + " (its input's type and shape)");
  return y;
}

template <class A, class P>
status flex_attention(const call<ops::FlexAttention>& c, dtype p_type) {
  const auto& attrs = c.attrs();
  const tensor &q = c.input(0), &k = c.input(1), &v = c.input(2);
  if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
    return status(errc::invalid_argument, "FlexAttention: Q, K and V must be 4D, got " + to_string(q.shape()) + ", " +
                                              to_string(k.shape()) + ", " + to_string(v.shape()));
  const std::int64_t B = q.dim(0), Hq = q.dim(1), L = q.dim(2), E = q.dim(3);
  const std::int64_t Hkv = k.dim(1), S = k.dim(2), Ev = v.dim(3);
  if (k.dim(0) != B || v.dim(0) != B || k.dim(3) != E || v.dim(1) != Hkv || v.dim(2) != S)
    return status(errc::invalid_argument, "FlexAttention: K " + to_string(k.shape()) + " and V " +
                                              to_string(v.shape()) + " do not match Q " + to_string(q.shape()));
  if (Hkv <= 0 || Hq % Hkv)
    return status(errc::invalid_argument, "FlexAttention: q heads (" + std::to_string(Hq) +
                                              ") must be a multiple of kv heads (" + std::to_string(Hkv) + ")");
  const dtype in_type = q.type();
  const std::int64_t group = Hq / Hkv;

  // sqrt(scale) in float32 (the default scale 1/sqrt(E) taken to float32
  // first), in the input type; Q and K scaled by it and rounded there.
  const float scale = attrs.scale ? *attrs.scale : static_cast<float>(1.0 / std::sqrt(static_cast<double>(E)));
  const A root = round_to(in_type, static_cast<A>(std::sqrt(scale)));
  std::vector<A> qs(static_cast<std::size_t>(q.size())), ks(static_cast<std::size_t>(k.size()));
  onyx::widen(q, std::span<A>(qs));
  onyx::widen(k, std::span<A>(ks));
  for (auto& x : qs) x = round_to(in_type, x * root);
  for (auto& x : ks) x = round_to(in_type, x * root);

  const std::int64_t rows = L * S;
  std::vector<A> scores(static_cast<std::size_t>(B * Hq * rows));
  parallel_for(c.pool(), B * Hq, 1, [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t bh = lo; bh < hi; ++bh) {
      const std::int64_t b = bh / Hq, hk = bh % Hq / group;
      A* s = scores.data() + bh * rows;
      matmul<A>(true, L, S, E, qs.data() + bh * L * E, ks.data() + (b * Hkv + hk) * S * E, s);
      for (std::int64_t i = 0; i < rows; ++i) s[i] = round_to(in_type, s[i]);
    }
  });
  qs = {}, ks = {};

  // The scores in the softmax precision, through score_mod.
  const extents score_shape{B, Hq, L, S};
  tensor st = tensor::uninitialized(p_type, score_shape);
  onyx::narrow(std::span<const A>(scores), st);
  scores = {};
  if (attrs.score_mod) {
    ONYX_ASSIGN(st, modify(c, attrs.score_mod.get(), "score_mod", std::move(st)));
  }
  std::vector<P> probs(static_cast<std::size_t>(st.size()));
  onyx::widen(st, std::span<P>(probs));

  // Softmax per row; a row of -inf gives NaN, as the definition does.
  parallel_for(c.pool(), B * Hq * L, grain_for(3 * S), [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t r = lo; r < hi; ++r) {
      P* row = probs.data() + r * S;
      P top = -std::numeric_limits<P>::infinity();
      for (std::int64_t j = 0; j < S; ++j) top = row[j] > top ? row[j] : top;
      P sum = 0;
      for (std::int64_t j = 0; j < S; ++j) sum += row[j] = std::exp(row[j] - top);
      for (std::int64_t j = 0; j < S; ++j) row[j] = round_to(p_type, row[j] / sum);
    }
  });
  if (attrs.prob_mod) {
    tensor pt = tensor::uninitialized(p_type, score_shape);
    onyx::narrow(std::span<const P>(probs), pt);
    ONYX_ASSIGN(pt, modify(c, attrs.prob_mod.get(), "prob_mod", std::move(pt)));
    onyx::widen(pt, std::span<P>(probs));
  }

  // Y = P V in the softmax precision.
  std::vector<P> vp(static_cast<std::size_t>(v.size())), y(static_cast<std::size_t>(B * Hq * L * Ev));
  onyx::widen(v, std::span<P>(vp));
  parallel_for(c.pool(), B * Hq, 1, [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t bh = lo; bh < hi; ++bh) {
      const std::int64_t b = bh / Hq, hk = bh % Hq / group;
      matmul<P>(false, L, Ev, S, probs.data() + bh * rows, vp.data() + (b * Hkv + hk) * S * Ev, y.data() + bh * L * Ev);
    }
  });
  onyx::narrow(std::span<const P>(y), c.output(0));
  return ok();
}

inline status run(const call<ops::FlexAttention>& c) {
  const dtype in_type = c.input(0).type();
  if (c.input(1).type() != in_type || c.input(2).type() != in_type)
    return status(errc::invalid_argument, "FlexAttention: Q, K and V must have one type");
  const dtype p_type = ops::FlexAttention::softmax_type(c.attrs(), in_type);
  const bool a_double = in_type == dtype::float64, p_double = p_type == dtype::float64;
  if (a_double) return p_double ? flex_attention<double, double>(c, p_type) : flex_attention<double, float>(c, p_type);
  return p_double ? flex_attention<float, double>(c, p_type) : flex_attention<float, float>(c, p_type);
}

}  // namespace onyx::kernels::cpu::flex_attention_detail

namespace onyx {

template <>
struct kernel<ops::FlexAttention, cpu> {
  static constexpr std::array types{dtypes::floats};
  template <ops::signature S>
  static status run(const call<ops::FlexAttention>& c) {
    return kernels::cpu::flex_attention_detail::run(c);
  }
};

}  // namespace onyx
