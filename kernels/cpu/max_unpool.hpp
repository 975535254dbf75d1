// kernel<ops::MaxUnpool, cpu>: scatters X into zeros of the unpooled shape at
// the flat positions I, then places that tensor in the corner of
// output_shape when one is given. An index outside the unpooled tensor fails
// with errc::out_of_range.
#pragma once

#include <algorithm>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/max_unpool.hpp"

namespace onyx {

template <>
struct kernel<ops::MaxUnpool, cpu> {
  static constexpr std::array types{ops::MaxUnpool::T1};
  template <ops::signature S>
  static status run(const call<ops::MaxUnpool>& c) {
    using T = storage_t<S[0]>;
    const tensor &x = c.input(0), &idx = c.input(1);
    if (idx.shape() != x.shape())
      return status(errc::invalid_argument,
                    "I " + sym_shape(idx.shape()).str() + " must have the shape of X " + sym_shape(x.shape()).str());
    ONYX_ASSIGN(auto dims, ops::MaxUnpool::unpooled(c.attrs(), sym_shape(x.shape())));
    extents inner;
    for (auto& d : dims) inner.push_back(d.value());
    extents outer = inner;
    if (c.has_input(2)) {
      outer = kernels::cpu::int64s(c.input(2));
      if (outer.size() != inner.size())
        return status(errc::invalid_argument, "output_shape must have rank " + std::to_string(inner.size()));
      for (std::size_t i = 0; i < outer.size(); ++i)
        if (outer[i] < inner[i])
          return status(errc::invalid_argument, "output_shape " + sym_shape(outer).str() +
                                                    " is smaller than the unpooled shape " + sym_shape(inner).str());
    }
    tensor& y = kernels::cpu::output_sized(c, 0, x.type(), outer);
    T* yp = y.data<T>();
    std::fill_n(yp, y.size(), store<T>(0.0f));
    // Flat position in `inner` -> flat position in `outer` (the same when equal).
    const auto inner_strides = kernels::cpu::strides_of(inner), outer_strides = kernels::cpu::strides_of(outer);
    const std::int64_t total = element_count(inner);
    const T* xp = x.data<T>();
    const std::int64_t* ip = idx.data<std::int64_t>();
    for (std::int64_t i = 0; i < x.size(); ++i) {
      std::int64_t at = ip[i];
      if (at < 0 || at >= total)
        return status(errc::out_of_range, "I[" + std::to_string(i) + "] = " + std::to_string(at) +
                                              " is outside the unpooled tensor of " + std::to_string(total) +
                                              " elements");
      std::int64_t pos = 0;
      for (std::size_t d = 0; d < inner.size(); ++d) {
        pos += at / inner_strides[d] * outer_strides[d];
        at %= inner_strides[d];
      }
      yp[pos] = xp[i];
    }
    return ok();
  }
};

}  // namespace onyx
