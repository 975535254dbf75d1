// kernel<ops::fused::Elementwise, cpu>: a region of elementwise steps in one
// pass over X. X is cut into chunks (8192 floats over the steps' buffers), within one
// channel plane where a constant is per channel; each step runs over the
// chunk into a buffer that stays in L1, through isa::f32_step (each step
// computed as its op's kernel computes it) or, for Sigmoid and Tanh, their
// kernels' ISA micro-kernels; the last step writes Y. Unfused, each op read
// and wrote the whole tensor: PP-OCRv4 det's hardswish and affine steps (six
// ops per conv) took a third of its time.
#pragma once

#include <algorithm>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/sigmoid.hpp"
#include "kernels/cpu/tanh.hpp"
#include "onyx/ops/fused/elementwise.hpp"

namespace onyx {

namespace kernels::cpu {

/// The steps' buffers: 32 KiB, cut into one chunk per step but the last (which
/// writes Y), 256 to 2048 floats each. Chunks of 256 for every region left
/// the steps' call overhead a third of a hardswish's time.
inline constexpr std::int64_t region_buffer_floats = 8192;
inline constexpr std::size_t region_max_steps = ops::fused::Elementwise::max_steps;
inline constexpr std::int64_t region_chunk_for(std::size_t steps) {
  const std::int64_t c = region_buffer_floats / static_cast<std::int64_t>(steps > 1 ? steps - 1 : 1) / 16 * 16;
  return c < 256 ? 256 : c > 2048 ? 2048 : c;
}

/// A step's operand over one chunk: a vector, or one value.
struct region_operand {
  const float* v = nullptr;
  float s = 0;
};

/// One step over a chunk: y[0, n) from its operands. Sigmoid and Tanh run
/// their kernels' ISA micro-kernels (or functors); the other steps run
/// isa::f32_step, which computes each as its op's functor does.
inline void region_step(const ops::fused::Elementwise::step& s, const region_operand (&in)[3], float* y,
                        std::int64_t n) {
  using op = ops::fused::Elementwise::op;
  const auto unary = [&](auto f) {
    if (isa::f32_unary_fn fn = decltype(f)::f32_isa(isa::active())) return fn(in[0].v, y, n);
    for (std::int64_t i = 0; i < n; ++i) y[i] = f(in[0].v[i]);
  };
  if (s.what == op::sigmoid) return unary(sigmoid_fn{});
  if (s.what == op::tanh) return unary(tanh_fn{});
  const isa::f32_step step = [&] {
    switch (s.what) {
      case op::add: return isa::f32_step::add;
      case op::sub: return isa::f32_step::sub;
      case op::mul: return isa::f32_step::mul;
      case op::div: return isa::f32_step::div;
      case op::max: return isa::f32_step::max;
      case op::min: return isa::f32_step::min;
      case op::relu: return isa::f32_step::relu;
      case op::clip: return isa::f32_step::clip;
      case op::leaky_relu: return isa::f32_step::leaky_relu;
      case op::hard_sigmoid: return isa::f32_step::hard_sigmoid;
      case op::hard_swish: return isa::f32_step::hard_swish;
      case op::neg: return isa::f32_step::neg;
      default: return isa::f32_step::abs;  // op::abs (sigmoid and tanh returned above)
    }
  }();
  float p = s.alpha, q = s.beta;
  if (s.what == op::clip) {
    p = s.operand[1] != ops::fused::Elementwise::absent ? in[1].s : std::numeric_limits<float>::lowest();
    q = s.operand[2] != ops::fused::Elementwise::absent ? in[2].s : std::numeric_limits<float>::max();
  }
  isa::active().f32_step(step, in[0].v, in[0].s, in[1].v, in[1].s, p, q, y, n);
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
    const std::int64_t region_chunk = region_chunk_for(steps.size());
    const std::int64_t per_plane = (inner + region_chunk - 1) / region_chunk;
    const std::int64_t units = total / std::max<std::int64_t>(inner, 1) * per_plane;
    const float* xs = x.data<float>();
    float* ys = y.data<float>();
    const std::int64_t grain = std::max<std::int64_t>(1, elementwise_grain / region_chunk);
    parallel_for(c.pool(), units, grain, [&](std::int64_t begin, std::int64_t end) {
      alignas(64) float buffers[region_buffer_floats];
      const auto buffer = [&](std::int64_t s) { return buffers + s * region_chunk; };
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
              in[j].v = buffer(v - 1);
            } else {
              const tensor& k = c.input(static_cast<int>(-v));
              in[j].s = k.data<float>()[k.size() == 1 ? 0 : channel];
            }
          }
          region_step(steps[s], in, s + 1 == steps.size() ? ys + at : buffer(static_cast<std::int64_t>(s)), n);
        }
      }
    });
    return ok();
  }
};

}  // namespace onyx
