// kernel<ops::fused::Elementwise, cpu>: a region of elementwise steps in one
// pass over X. X is cut into chunks (8192 floats over the steps' buffers), within one
// channel plane where a constant is per channel; each step runs over the
// chunk into a buffer that stays in L1, through isa::f32_step (each step
// computed as its op's kernel computes it) or, for Sigmoid and Tanh, their
// kernels' ISA micro-kernels; the last step writes Y. Unfused, each op read
// and wrote the whole tensor: PP-OCRv4 det's hardswish and affine steps (six
// ops per conv) took a third of its time. The hardswish form itself
// (x * Clip(x + c, lo, hi) / d, with or without PP-LCNet's affine step
// after it) runs each vector through all its steps in registers
// (isa::f32_hard_swish_form, bit for bit the steps): a step a pass cost a
// store and a load per vector and step, and on Zen 1, which stores one 128-bit
// half a cycle, the stores were most of the region's time.
#pragma once

#include <algorithm>
#include <limits>
#include <optional>

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

/// Where a region is the hardswish form isa::f32_hard_swish_form computes
/// in registers, its constants' operands (E::absent: a Clip bound not given,
/// or s and t where the region ends at the division, affine false).
struct hard_swish_form {
  std::int64_t c, lo, hi, d, s = ops::fused::Elementwise::absent, t = ops::fused::Elementwise::absent;
  bool affine = false;
};
inline std::optional<hard_swish_form> match_hard_swish_form(const std::vector<ops::fused::Elementwise::step>& steps) {
  using E = ops::fused::Elementwise;
  using op = E::op;
  if (steps.size() != 4 && steps.size() != 6) return std::nullopt;
  // A binary step of `value` (0: X, s + 1: step s) and a constant; the constant's operand.
  const auto with_constant = [&](std::size_t i, op what, std::int64_t value, bool either_order) -> std::int64_t {
    const E::step& st = steps[i];
    if (st.what != what) return 0;
    if (st.operand[0] == value && st.operand[1] < 0 && st.operand[1] != E::absent) return st.operand[1];
    if (either_order && st.operand[1] == value && st.operand[0] < 0 && st.operand[0] != E::absent) return st.operand[0];
    return 0;
  };
  hard_swish_form f;
  f.c = with_constant(0, op::add, 0, true);
  const E::step& clip = steps[1];
  const E::step& mul = steps[2];
  f.d = with_constant(3, op::div, 3, false);
  if (!f.c || !f.d || clip.what != op::clip || clip.operand[0] != 1 || clip.operand[1] >= 0 || clip.operand[2] >= 0 ||
      mul.what != op::mul || !((mul.operand[0] == 0 && mul.operand[1] == 2) || (mul.operand[0] == 2 && mul.operand[1] == 0)))
    return std::nullopt;
  f.lo = clip.operand[1], f.hi = clip.operand[2];
  if (steps.size() == 6) {
    f.s = with_constant(4, op::mul, 4, true);
    f.t = with_constant(5, op::add, 5, true);
    if (!f.s || !f.t) return std::nullopt;
    f.affine = true;
  }
  return f;
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
    // f(at, channel, n) for each chunk: n floats from at, within one plane.
    const auto over_chunks = [&](auto f) {
      parallel_for(c.pool(), units, grain, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t u = begin; u < end; ++u) {
          const std::int64_t plane = u / per_plane, first = (u % per_plane) * region_chunk;
          f(plane * inner + first, plane % channels, std::min(region_chunk, inner - first));
        }
      });
    };
    // A constant operand's value for a channel (`none` where it is absent).
    const auto value = [&](std::int64_t v, std::int64_t channel, float none) {
      if (v == E::absent) return none;
      const tensor& k = c.input(static_cast<int>(-v));
      return k.data<float>()[k.size() == 1 ? 0 : channel];
    };
    if (const auto form = match_hard_swish_form(steps)) {  // in registers, one pass
      const auto fn = isa::active().f32_hard_swish_form;
      over_chunks([&](std::int64_t at, std::int64_t channel, std::int64_t n) {
        const float lowest = std::numeric_limits<float>::lowest(), highest = std::numeric_limits<float>::max();
        fn(xs + at, value(form->c, channel, 0), value(form->lo, channel, lowest), value(form->hi, channel, highest),
           value(form->d, channel, 1), form->affine, value(form->s, channel, 1), value(form->t, channel, 0), ys + at, n);
      });
      return ok();
    }
    over_chunks([&](std::int64_t at, std::int64_t channel, std::int64_t n) {
      alignas(64) float buffers[region_buffer_floats];
      const auto buffer = [&](std::int64_t s) { return buffers + s * region_chunk; };
      for (std::size_t s = 0; s < steps.size(); ++s) {
        region_operand in[3];
        for (int j = 0; j < 3; ++j) {
          const std::int64_t v = steps[s].operand[j];
          if (v == E::absent) continue;
          if (v == 0)
            in[j].v = xs + at;
          else if (v > 0)
            in[j].v = buffer(v - 1);
          else
            in[j].s = value(v, channel, 0);
        }
        region_step(steps[s], in, s + 1 == steps.size() ? ys + at : buffer(static_cast<std::int64_t>(s)), n);
      }
    });
    return ok();
  }
};

}  // namespace onyx
