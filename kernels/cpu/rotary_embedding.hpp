// kernels/cpu/rotary_embedding.hpp: RotaryEmbedding (23+).
//
// One pass over (batch, seq, head): the cos/sin rows for (b, s) are located
// once (through position_ids when given), then the first R features of the
// head are rotated pairwise (halves or interleaved) in float and the rest
// copied. X may be [B, H, S, D] or [B, S, H*D]; only the strides differ.
#pragma once

#include <vector>

#include "onyx/ops/rotary_embedding.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::rotary_detail {

template <class T> status rotate(const call<ops::RotaryEmbedding>& c) {
  const auto& a = c.attrs();
  const tensor &x = c.input(0), &cs = c.input(1), &sn = c.input(2);
  const bool four_d = x.rank() == 4;
  const std::int64_t B = x.dim(0), H = four_d ? x.dim(1) : *a.num_heads, S = four_d ? x.dim(2) : x.dim(1);
  const std::int64_t D = four_d ? x.dim(3) : x.dim(2) / H;
  if (!four_d && x.dim(2) % H)
    return status(errc::invalid_argument, "RotaryEmbedding: hidden size " + std::to_string(x.dim(2)) +
                                              " is not a multiple of num_heads " + std::to_string(H));
  const std::int64_t R = a.rotary_embedding_dim > 0 ? a.rotary_embedding_dim : D, half = R / 2;
  if (R > D || R % 2)
    return status(errc::invalid_argument, "RotaryEmbedding: rotary_embedding_dim " + std::to_string(R) +
                                              " must be even and at most the head size " + std::to_string(D));
  if (cs.shape() != sn.shape() || cs.shape().back() != half)
    return status(errc::invalid_argument, "RotaryEmbedding: cos/sin caches " + to_string(cs.shape()) + ", " +
                                              to_string(sn.shape()) + " must end in rotary_dim/2 = " +
                                              std::to_string(half));
  const std::int64_t* pos = c.has_input(3) ? c.input(3).data<std::int64_t>() : nullptr;
  if (pos) {
    if (c.input(3).size() != B * S)
      return status(errc::invalid_argument, "RotaryEmbedding: position_ids " + to_string(c.input(3).shape()) +
                                                " must be [" + std::to_string(B) + "," + std::to_string(S) + "]");
    for (std::int64_t i = 0; i < B * S; ++i)
      if (pos[i] < 0 || pos[i] >= cs.dim(0))
        return status(errc::out_of_range, "RotaryEmbedding: position id " + std::to_string(pos[i]) + " at index " +
                                              std::to_string(i) + " is outside the cache [0, " +
                                              std::to_string(cs.dim(0)) + ")");
  } else if (cs.dim(0) != B || cs.dim(1) != S) {
    return status(errc::invalid_argument, "RotaryEmbedding: caches " + to_string(cs.shape()) + " must be [" +
                                              std::to_string(B) + "," + std::to_string(S) + "," +
                                              std::to_string(half) + "] without position_ids");
  }
  const T *xp = x.data<T>(), *cp = cs.data<T>(), *sp = sn.data<T>();
  T* yp = c.output(0).data<T>();
  const bool inter = a.interleaved != 0;
  parallel_for(c.pool(), B * S, grain_for(H * D), [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t bs = lo; bs < hi; ++bs) {
      const std::int64_t b = bs / S, s = bs % S, row = pos ? pos[bs] : bs;
      const T *cr = cp + row * half, *sr = sp + row * half;
      for (std::int64_t h = 0; h < H; ++h) {
        const std::int64_t base = four_d ? ((b * H + h) * S + s) * D : (bs * H + h) * D;
        const T* xi = xp + base;
        T* yo = yp + base;
        for (std::int64_t j = 0; j < half; ++j) {
          const std::int64_t i1 = inter ? 2 * j : j, i2 = inter ? 2 * j + 1 : j + half;
          const float x1 = load(xi[i1]), x2 = load(xi[i2]), cv = load(cr[j]), sv = load(sr[j]);
          yo[i1] = store<T>(cv * x1 - sv * x2);
          yo[i2] = store<T>(sv * x1 + cv * x2);
        }
        std::copy(xi + R, xi + D, yo + R);
      }
    }
  });
  return ok();
}

}  // namespace onyx::kernels::cpu::rotary_detail

namespace onyx {

template <> struct kernel<ops::RotaryEmbedding, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f16 | dtypes::bf16};
  template <ops::signature S> static status run(const call<ops::RotaryEmbedding>& c) {
    return kernels::cpu::rotary_detail::rotate<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
