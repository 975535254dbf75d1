// kernel<ops::Binarizer, cpu>: y = x > threshold ? 1 : 0, compared in double.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/binarizer.hpp"

namespace onyx {

template <>
struct kernel<ops::Binarizer, cpu> {
  static constexpr std::array types{ops::Binarizer::T};
  template <ops::signature S>
  static status run(const call<ops::Binarizer>& c) {
    using T = storage_t<S[0]>;
    const double threshold = c.attrs().threshold;
    const T* xp = c.input(0).data<T>();
    T* yp = c.output(0).template data<T>();
    parallel_for(c.pool(), c.input(0).size(), kernels::cpu::elementwise_grain, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) yp[i] = static_cast<double>(xp[i]) > threshold ? T(1) : T(0);
    });
    return ok();
  }
};

}  // namespace onyx
