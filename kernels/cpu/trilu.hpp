// kernel<ops::Trilu, cpu>: per matrix row i, the kept columns are one
// contiguous run (j >= i + k for upper, j <= i + k for lower): copy it, zero
// the rest.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/trilu.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status trilu(const call<ops::Trilu>& c) {
  const tensor& x = c.input(0);
  const std::int64_t k = c.has_input(1) && c.input(1).size() > 0 ? int64s(c.input(1))[0] : 0;
  const bool upper = c.attrs().upper != 0;
  const std::int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1);
  const std::int64_t rows = n ? x.size() / n : 0;
  const E* src = x.data<E>();
  E* dst = c.output(0).data<E>();
  parallel_for(c.pool(), rows, std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(n, 1)),
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; ++r) {
                   const std::int64_t i = r % m;
                   // Kept columns [lo, hi).
                   std::int64_t lo = upper ? std::clamp<std::int64_t>(i + k, 0, n) : 0;
                   std::int64_t hi = upper ? n : std::clamp<std::int64_t>(i + k + 1, 0, n);
                   E* d = dst + r * n;
                   const E* s = src + r * n;
                   std::fill(d, d + lo, E{});
                   copy_n(s + lo, hi - lo, d + lo);
                   std::fill(d + hi, d + n, E{});
                 }
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Trilu, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Trilu>& c) {
    return kernels::cpu::trilu<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
