// kernel<ops::fused::Elementwise, cpu>: a region of elementwise steps in one
// pass over X. X is cut into chunks of `region_chunk` elements, within one
// channel plane where a constant is per channel; each step runs over the
// chunk with the functor (or ISA micro-kernel) of its op's own kernel, into a
// buffer that stays in L1, and the last step writes Y. Unfused, each op read
// and wrote the whole tensor: PP-OCRv4 det's hardswish and affine steps (six
// ops per conv) took a third of its time.
#pragma once

#include <algorithm>

#include "kernels/cpu/abs.hpp"
#include "kernels/cpu/add.hpp"
#include "kernels/cpu/clip.hpp"
#include "kernels/cpu/div.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/hard_sigmoid.hpp"
#include "kernels/cpu/hard_swish.hpp"
#include "kernels/cpu/leaky_relu.hpp"
#include "kernels/cpu/max.hpp"
#include "kernels/cpu/min.hpp"
#include "kernels/cpu/mul.hpp"
#include "kernels/cpu/neg.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/sigmoid.hpp"
#include "kernels/cpu/sub.hpp"
#include "kernels/cpu/tanh.hpp"
#include "onyx/ops/fused/elementwise.hpp"

namespace onyx {

namespace kernels::cpu {

/// Elements per chunk: 32 step buffers of it take 32 KiB.
inline constexpr std::int64_t region_chunk = 256;
inline constexpr std::size_t region_max_steps = 32;

/// A step's operand over one chunk: a vector, or one value.
struct region_operand {
  const float* v = nullptr;
  float s = 0;
};

template <class F>
void region_binary(F f, region_operand a, region_operand b, float* y, std::int64_t n) {
  if (a.v && b.v) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = f(a.v[i], b.v[i]);
  } else if (a.v) {
    const float s = b.s;
    for (std::int64_t i = 0; i < n; ++i) y[i] = f(a.v[i], s);
  } else {
    const float s = a.s;
    for (std::int64_t i = 0; i < n; ++i) y[i] = f(s, b.v[i]);
  }
}

template <class F>
void region_unary(F f, const float* x, float* y, std::int64_t n) {
  if constexpr (requires { F::f32_isa(isa::active()); }) {
    if (isa::f32_unary_fn fn = F::f32_isa(isa::active())) {
      fn(x, y, n);
      return;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

/// One step over a chunk: y[0, n) from its operands.
inline void region_step(const ops::fused::Elementwise::step& s, const region_operand (&in)[3], float* y,
                        std::int64_t n) {
  using op = ops::fused::Elementwise::op;
  const float* x = in[0].v;
  switch (s.what) {
    case op::add: return region_binary(add_fn{}, in[0], in[1], y, n);
    case op::sub: return region_binary(subtract_fn{}, in[0], in[1], y, n);
    case op::mul: return region_binary(multiply_fn{}, in[0], in[1], y, n);
    case op::div: return region_binary(divide_fn{}, in[0], in[1], y, n);
    case op::max: return region_binary(max_fn{}, in[0], in[1], y, n);
    case op::min: return region_binary(min_fn{}, in[0], in[1], y, n);
    case op::relu: return region_unary(relu_fn{}, x, y, n);
    case op::clip: {
      const bool lo = s.operand[1] != ops::fused::Elementwise::absent, hi = s.operand[2] != ops::fused::Elementwise::absent;
      const clip_fn<float> f{lo ? in[1].s : std::numeric_limits<float>::lowest(),
                             hi ? in[2].s : std::numeric_limits<float>::max()};
      return region_unary(f, x, y, n);
    }
    case op::leaky_relu: return region_unary(leaky_relu_fn(ops::LeakyRelu::attributes{s.alpha}), x, y, n);
    case op::hard_sigmoid:
      return region_unary(hard_sigmoid_fn(ops::HardSigmoid::attributes{s.alpha, s.beta}), x, y, n);
    case op::hard_swish: return region_unary(hard_swish_fn{}, x, y, n);
    case op::sigmoid: return region_unary(sigmoid_fn{}, x, y, n);
    case op::tanh: return region_unary(tanh_fn{}, x, y, n);
    case op::neg: return region_unary(neg_fn{}, x, y, n);
    case op::abs: return region_unary(abs_fn{}, x, y, n);
  }
}

}  // namespace kernels::cpu

template <> struct kernel<ops::fused::Elementwise, cpu> {
  static constexpr std::array types{ops::fused::Elementwise::T};
  template <ops::signature> static status run(const call<ops::fused::Elementwise>& c) {
    using namespace kernels::cpu;
    using E = ops::fused::Elementwise;
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    const auto& steps = c.attrs().steps;
    if (steps.size() > region_max_steps)
      return status(errc::unsupported, "Elementwise runs at most " + std::to_string(region_max_steps) +
                                           " steps, got " + std::to_string(steps.size()));
    const std::int64_t total = x.size();
    if (total == 0) return ok();
    // One plane per channel when a constant is per channel, else one plane.
    std::int64_t channels = 1, inner = total;
    for (int i = 1; i < c.input_count(); ++i) {
      const std::int64_t k = c.input(i).size();
      if (k == 1) continue;
      if (x.rank() < 2 || k != x.dim(1))
        return status(errc::invalid_argument, "Elementwise: constant " + std::to_string(i - 1) + " has " +
                                                  std::to_string(k) + " values for X " + to_string(x.shape()));
      channels = k;
    }
    if (channels > 1) {
      inner = 1;
      for (std::size_t d = 2; d < x.rank(); ++d) inner *= x.dim(d);
    }
    const std::int64_t per_plane = (inner + region_chunk - 1) / region_chunk;
    const std::int64_t units = total / std::max<std::int64_t>(inner, 1) * per_plane;
    const float* xs = x.data<float>();
    float* ys = y.data<float>();
    const std::int64_t grain = std::max<std::int64_t>(1, elementwise_grain / region_chunk);
    parallel_for(c.pool(), units, grain, [&](std::int64_t begin, std::int64_t end) {
      alignas(64) float buffer[region_max_steps][region_chunk];
      for (std::int64_t u = begin; u < end; ++u) {
        const std::int64_t plane = u / per_plane, first = (u % per_plane) * region_chunk;
        const std::int64_t channel = plane % channels, at = plane * inner + first;
        const std::int64_t n = std::min(region_chunk, inner - first);
        for (std::size_t s = 0; s < steps.size(); ++s) {
          region_operand in[3];
          for (int j = 0; j < 3; ++j) {
            const std::int64_t v = steps[s].operand[j];
            if (v == E::absent) continue;
            if (v == 0) {
              in[j].v = xs + at;
            } else if (v > 0) {
              in[j].v = buffer[v - 1];
            } else {
              const tensor& k = c.input(static_cast<int>(-v));
              in[j].s = k.data<float>()[k.size() == 1 ? 0 : channel];
            }
          }
          region_step(steps[s], in, s + 1 == steps.size() ? ys + at : buffer[s], n);
        }
      }
    });
    return ok();
  }
};

}  // namespace onyx
