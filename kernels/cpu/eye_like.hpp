// kernel<ops::EyeLike, cpu>: zeros, then a one at (i, i + k) for each row i
// the diagonal crosses.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/eye_like.hpp"

namespace onyx {

template <> struct kernel<ops::EyeLike, cpu> {
  static constexpr std::array types{ops::EyeLike::T2};
  template <ops::signature S> static status run(const call<ops::EyeLike>& c) {
    using T = storage_t<S[0]>;
    tensor& y = c.output(0);
    const std::int64_t m = y.dim(0), n = y.dim(1), k = c.attrs().k;
    T* d = y.data<T>();
    std::fill_n(d, y.size(), store<T>(0));
    for (std::int64_t i = std::max<std::int64_t>(0, -k); i < m && i + k < n; ++i) d[i * n + i + k] = store<T>(1);
    return ok();
  }
};

}  // namespace onyx
