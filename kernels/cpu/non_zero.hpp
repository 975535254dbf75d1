// kernel<ops::NonZero, cpu>: one pass counts, the output is allocated
// [rank, count], a second pass writes each hit's coordinates (kept by an
// odometer, no divisions).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/non_zero.hpp"

namespace onyx {

template <> struct kernel<ops::NonZero, cpu> {
  static constexpr std::array types{ops::NonZero::T};
  template <ops::signature S> static status run(const call<ops::NonZero>& c) {
    using T = storage_t<S[0]>;
    const tensor& x = c.input(0);
    const T* s = x.data<T>();
    const std::int64_t n = x.size();
    auto nonzero = [](T v) { return load(v) != 0; };
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < n; ++i) count += nonzero(s[i]);
    const auto r = static_cast<std::int64_t>(x.rank());
    tensor& y = c.allocate_output(0, dtype::int64, {r, count});
    std::int64_t* d = y.data<std::int64_t>();
    std::vector<std::int64_t> idx(x.rank(), 0);
    std::int64_t at = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (nonzero(s[i])) {
        for (std::int64_t k = 0; k < r; ++k) d[k * count + at] = idx[k];
        ++at;
      }
      for (std::int64_t k = r; k-- > 0;) {
        if (++idx[k] < x.dim(k)) break;
        idx[k] = 0;
      }
    }
    return ok();
  }
};

}  // namespace onyx
