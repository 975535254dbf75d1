// kernel<ops::ConstantOfShape, cpu>: fills the output with the attribute's
// element, moved by width (one instantiation per width, chosen at run time).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/constant_of_shape.hpp"

namespace onyx {

template <> struct kernel<ops::ConstantOfShape, cpu> {
  static constexpr std::array types{dtypes::i64};
  template <ops::signature> static status run(const call<ops::ConstantOfShape>& c) {
    tensor& y = c.output(0);
    const tensor& v = c.attrs().value;
    kernels::cpu::with_element(y.type(), [&]<class E>() {
      E fill = v.empty() ? E{} : v.data<E>()[0];
      E* d = y.data<E>();
      parallel_for(c.pool(), y.size(), grain_for(1),
                   [&](std::int64_t b, std::int64_t e) { std::fill(d + b, d + e, fill); });
    });
    return ok();
  }
};

}  // namespace onyx
