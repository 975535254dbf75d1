// kernel<ops::Range, cpu>: element i is start + i * delta (computed, not
// accumulated, so float error does not grow along the output).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/range.hpp"

namespace onyx {

template <> struct kernel<ops::Range, cpu> {
  static constexpr std::array types{ops::Range::T};
  template <ops::signature S> static status run(const call<ops::Range>& c) {
    using T = storage_t<S[0]>;
    const auto start = load(c.input(0).data<T>()[0]), limit = load(c.input(1).data<T>()[0]),
               delta = load(c.input(2).data<T>()[0]);
    using A = decltype(start);
    ONYX_ASSIGN(auto n, ops::Range::count(static_cast<double>(start), static_cast<double>(limit),
                                          static_cast<double>(delta)));
    T* y = kernels::cpu::output_sized(c, 0, S[0], {n}).template data<T>();
    for (std::int64_t i = 0; i < n; ++i) y[i] = store<T>(start + static_cast<A>(i) * delta);
    return ok();
  }
};

}  // namespace onyx
