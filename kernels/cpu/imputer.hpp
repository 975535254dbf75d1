// kernel<ops::Imputer, cpu>: one pass, element i compared with the replaced
// value (NaN by isnan) and given the imputed value of column i % stride.
#pragma once

#include <cmath>

#include "onyx/ops/imputer.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::Imputer, cpu> {
  static constexpr std::array types{ops::Imputer::T};
  template <ops::signature S>
  static status run(const call<ops::Imputer>& c) {
    using T = storage_t<S[0]>;
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    const std::int64_t stride = x.rank() == 1 ? x.dim(0) : x.dim(1);
    const T* xp = x.data<T>();
    T* yp = c.output(0).template data<T>();
    auto fill = [&](const auto& values, auto replaced, bool nan) -> status {
      const auto n = static_cast<std::int64_t>(values.size());
      if (n != 1 && n != stride)
        return status(errc::invalid_argument, "the imputed values (" + std::to_string(n) +
                                                  ") are neither one nor one per column (" + std::to_string(stride) +
                                                  ")");
      for (std::int64_t i = 0; i < x.size(); ++i) {
        const bool hit = nan ? std::isnan(static_cast<double>(xp[i])) : xp[i] == static_cast<T>(replaced);
        yp[i] = hit ? static_cast<T>(values[static_cast<std::size_t>(n == 1 ? 0 : i % stride)]) : xp[i];
      }
      return ok();
    };
    if constexpr (std::is_floating_point_v<T>)
      return fill(a.imputed_value_floats, a.replaced_value_float, std::isnan(a.replaced_value_float));
    else
      return fill(a.imputed_value_int64s, a.replaced_value_int64, false);
  }
};

}  // namespace onyx
