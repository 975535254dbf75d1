// kernel<ops::CastLike, cpu>: the Cast conversions (kernels/cpu/cast.hpp),
// keyed by (input type, target type).
#pragma once

#include "kernels/cpu/cast.hpp"
#include "onyx/ops/cast_like.hpp"

namespace onyx {

template <> struct kernel<ops::CastLike, cpu> {
  static constexpr std::array types{ops::CastLike::T1, ops::CastLike::T2};
  template <ops::signature S> static status run(const call<ops::CastLike>& c) {
    using namespace kernels::cpu;
    return cast_run<S>(c, make_cast_options(c.attrs().saturate, c.attrs().round_mode));
  }
};

}  // namespace onyx
