// kernel<ops::Clip, cpu>: y = min(max(x, lo), hi); an absent bound is
// unbounded, NaN in x stays NaN. Scalar bounds (the spec's case) take one
// vectorizable pass; tensor bounds are broadcast (two passes: max, then min).
// Every numeric type; half types in float.
#pragma once

#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/clip.hpp"

namespace onyx {

namespace kernels::cpu {
/// min(max(v, l), h) as Clip computes it with one-value bounds (a NaN passes through).
template <class A> struct clip_fn {
  A l, h;
  A operator()(A v) const {
    A w = v < l ? l : v;
    return h < w ? h : w;
  }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Clip, cpu> {
  static constexpr std::array types{ops::Clip::T};

  template <ops::signature S> static status run(const call<ops::Clip>& c) {
    using T = storage_t<S[0]>;
    using A = std::remove_cvref_t<decltype(kernels::cpu::widen(T{}))>;  // arithmetic type
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    const tensor* lo = c.has_input(1) ? &c.input(1) : nullptr;
    const tensor* hi = c.has_input(2) ? &c.input(2) : nullptr;
    auto scalar = [](const tensor* b) { return !b || b->size() == 1; };
    if (scalar(lo) && scalar(hi)) {
      const A l = lo ? A(kernels::cpu::widen(lo->data<T>()[0])) : std::numeric_limits<A>::lowest();
      const A h = hi ? A(kernels::cpu::widen(hi->data<T>()[0])) : std::numeric_limits<A>::max();
      kernels::cpu::map_unary(x.data<T>(), y.data<T>(), x.size(), kernels::cpu::clip_fn<A>{l, h}, c.pool());
      return ok();
    }
    auto max_fn = [](A a, A b) { return a < b ? b : a; };
    auto min_fn = [](A a, A b) { return b < a ? b : a; };
    if (lo) {
      ONYX_TRY((kernels::cpu::broadcast_binary<T, T, T>(x, *lo, y, max_fn, c.pool())));
    } else {
      kernels::cpu::copy_elements(x, y);
    }
    if (hi) ONYX_TRY(kernels::cpu::accumulate_broadcast<T>(y, *hi, min_fn, c.pool()));
    return ok();
  }
};

}  // namespace onyx
