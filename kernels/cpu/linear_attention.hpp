// kernel<ops::LinearAttention, cpu>: the recurrence step by step, in float32,
// one (batch, KV head) pair per task: its state lives in a d_k x d_v buffer
// and serves the group of query heads that read it.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/linear_attention.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

template <>
struct kernel<ops::LinearAttention, cpu> {
  static constexpr std::array types{ops::LinearAttention::T};
  template <ops::signature S>
  static status run(const call<ops::LinearAttention>& c) {
    using T = storage_t<S[0]>;
    const auto& a = c.attrs();
    const tensor &q = c.input(0), &k = c.input(1), &v = c.input(2);
    if (q.rank() != 3 || k.rank() != 3 || v.rank() != 3)
      return status(errc::invalid_argument, "query, key and value must be (B, T, heads * dim)");
    const std::int64_t B = q.dim(0), steps = q.dim(1), hq = a.q_num_heads, hkv = a.kv_num_heads, group = hq / hkv;
    if (q.dim(2) % hq || v.dim(2) % hkv)
      return status(errc::invalid_argument, "query and value last dims must be multiples of their head counts");
    const std::int64_t dk = q.dim(2) / hq, dv = v.dim(2) / hkv;
    if (k.shape() != extents{B, steps, hkv * dk} || v.dim(0) != B || v.dim(1) != steps)
      return status(errc::invalid_argument, "key must be " + sym_shape(extents{B, steps, hkv * dk}).str() +
                                                " and value (" + std::to_string(B) + ", " + std::to_string(steps) +
                                                ", kv_num_heads * d_v)");
    const tensor* past = c.input_count() > 3 && c.has_input(3) ? &c.input(3) : nullptr;
    const tensor* decay = c.input_count() > 4 && c.has_input(4) ? &c.input(4) : nullptr;
    const tensor* beta = c.input_count() > 5 && c.has_input(5) ? &c.input(5) : nullptr;
    if (past && past->shape() != extents{B, hkv, dk, dv})
      return status(errc::invalid_argument, "past_state must be " + sym_shape(extents{B, hkv, dk, dv}).str() +
                                                ", not " + sym_shape(past->shape()).str());
    // decay: per KV head (last dim hkv) or per key dim (hkv * dk); beta: per KV head or shared (1).
    std::int64_t decay_width = 0, beta_width = 0;
    if (decay) {
      decay_width = decay->rank() == 3 ? decay->dim(2) : -1;
      if (decay->rank() != 3 || decay->dim(0) != B || decay->dim(1) != steps ||
          (decay_width != hkv && decay_width != hkv * dk))
        return status(errc::invalid_argument, "decay must be (B, T, kv_num_heads) or (B, T, kv_num_heads * d_k)");
    }
    if (beta) {
      beta_width = beta->rank() == 3 ? beta->dim(2) : -1;
      if (beta->rank() != 3 || beta->dim(0) != B || beta->dim(1) != steps || (beta_width != hkv && beta_width != 1))
        return status(errc::invalid_argument, "beta must be (B, T, kv_num_heads) or (B, T, 1)");
    }
    const float scale = a.scale != 0.0f ? a.scale : 1.0f / std::sqrt(static_cast<float>(dk));
    const T *qp = q.data<T>(), *kp = k.data<T>(), *vp = v.data<T>();
    T* yp = c.output(0).template data<T>();
    tensor* present = c.has_output(1) ? &c.output(1) : nullptr;

    parallel_for(c.pool(), B * hkv, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<float> state(static_cast<std::size_t>(dk * dv)), kt(dk), vt(dv);
      for (std::int64_t task = first; task < last; ++task) {
        const std::int64_t b = task / hkv, h = task % hkv;
        for (std::int64_t i = 0; i < dk * dv; ++i)
          state[i] = past ? static_cast<float>(kernels::cpu::number_at(*past, task * dk * dv + i)) : 0.0f;
        for (std::int64_t t = 0; t < steps; ++t) {
          const std::int64_t bt = b * steps + t;
          for (std::int64_t d = 0; d < dk; ++d) kt[d] = static_cast<float>(load(kp[(bt * hkv + h) * dk + d]));
          for (std::int64_t m = 0; m < dv; ++m) vt[m] = static_cast<float>(load(vp[(bt * hkv + h) * dv + m]));
          if (decay)
            for (std::int64_t d = 0; d < dk; ++d) {
              const std::int64_t at = bt * decay_width + (decay_width == hkv ? h : h * dk + d);
              const float g = std::exp(static_cast<float>(load(decay->data<T>()[at])));
              for (std::int64_t m = 0; m < dv; ++m) state[d * dv + m] *= g;
            }
          if (beta) {
            const float bb = static_cast<float>(load(beta->data<T>()[bt * beta_width + (beta_width == 1 ? 0 : h)]));
            for (std::int64_t m = 0; m < dv; ++m) {
              float retrieved = 0;
              for (std::int64_t d = 0; d < dk; ++d) retrieved += state[d * dv + m] * kt[d];
              vt[m] = bb * (vt[m] - retrieved);
            }
          }
          for (std::int64_t d = 0; d < dk; ++d)
            for (std::int64_t m = 0; m < dv; ++m) state[d * dv + m] += kt[d] * vt[m];
          for (std::int64_t g = 0; g < group; ++g) {
            const std::int64_t head = h * group + g;
            const T* qt = qp + (bt * hq + head) * dk;
            T* out = yp + (bt * hq + head) * dv;
            for (std::int64_t m = 0; m < dv; ++m) {
              float acc = 0;
              for (std::int64_t d = 0; d < dk; ++d) acc += static_cast<float>(load(qt[d])) * state[d * dv + m];
              out[m] = store<T>(scale * acc);
            }
          }
        }
        if (present)
          for (std::int64_t i = 0; i < dk * dv; ++i) store_number_as(*present, task * dk * dv + i, state[i]);
      }
    });
    return ok();
  }

 private:
  static void store_number_as(tensor& t, std::int64_t i, float v) {
    visit_numeric(
        t.type(), [&](auto zero) { t.data<decltype(zero)>()[i] = store<decltype(zero)>(v); }, [] {});
  }
};

}  // namespace onyx
