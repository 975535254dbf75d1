// kernel<ops::ScatterND, cpu>: the output starts as a copy of data; each
// index row (resolved and validated up front) combines one contiguous slice
// of updates into the output, rows in order.
#pragma once

#include "kernels/cpu/gather_nd.hpp"
#include "kernels/cpu/scatter.hpp"
#include "onyx/ops/scatter_nd.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E, class Combine> status scatter_nd(const call<ops::ScatterND>& c, Combine combine) {
  const tensor &x = c.input(0), &idx = c.input(1), &upd = c.input(2);
  if (idx.rank() == 0 || static_cast<std::size_t>(idx.shape().back()) > x.rank())
    return status(errc::invalid_argument, "indices shape " + to_string(idx.shape()) + " does not fit data " +
                                              to_string(x.shape()));
  const auto k = static_cast<std::size_t>(idx.shape().back());
  extents expected(idx.shape().begin(), idx.shape().end() - 1);
  expected.insert(expected.end(), x.shape().begin() + static_cast<std::ptrdiff_t>(k), x.shape().end());
  if (upd.shape() != expected)
    return status(errc::invalid_argument, "updates shape " + to_string(upd.shape()) + " should be " + to_string(expected));
  ONYX_ASSIGN(auto off, index_rows(x, idx, 0));
  tensor& y = c.output(0);
  if (y.raw() != x.raw()) copy_n(x.data<E>(), x.size(), y.data<E>());
  const std::int64_t slice = element_count(extents(x.shape().begin() + static_cast<std::ptrdiff_t>(k), x.shape().end()));
  const E* u = upd.data<E>();
  E* d = y.data<E>();
  for (std::size_t t = 0; t < off.size(); ++t)
    for (std::int64_t l = 0; l < slice; ++l) combine(d[off[t] + l], u[static_cast<std::int64_t>(t) * slice + l]);
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::ScatterND, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::ScatterND>& c) {
    return kernels::cpu::dispatch_scatter<S[0]>(c.attrs().reduction, [&]<class E>(auto combine) {
      return kernels::cpu::scatter_nd<E>(c, combine);
    });
  }
};

}  // namespace onyx
