// kernel<ops::Where, cpu>: y = cond ? x : y over a three-way broadcast plan.
// Data movement, so the work is instantiated per element width (1, 2, 4, 8
// bytes as unsigned integers, plus std::string), not per dtype. Rows where
// cond, x and y are all contiguous (the common same-shape case) take a
// branch-free select loop; other rows index with their 0/1 strides.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/where.hpp"

namespace onyx {

namespace kernels::cpu {

template <class W> status where_by_width(const call<ops::Where>& c) {
  const tensor &cond = c.input(0), &x = c.input(1), &y = c.input(2);
  tensor& out = c.output(0);
  ONYX_ASSIGN(auto p, (plan_broadcast<3>(out.shape(), {&cond.shape(), &x.shape(), &y.shape()})));
  const bool* cs = cond.data<bool>();
  const W* xs = static_cast<const W*>(x.raw());
  const W* ys = static_cast<const W*>(y.raw());
  W* os = static_cast<W*>(out.raw());
  const std::int64_t sc = p.inner_dense(0), sx = p.inner_dense(1), sy = p.inner_dense(2);
  for_each_row(p, c.pool(), elementwise_grain, [&](std::int64_t pos, const std::array<std::int64_t, 3>& off,
                                                   std::int64_t n) {
    const bool* cr = cs + off[0];
    const W *xr = xs + off[1], *yr = ys + off[2];
    W* o = os + pos;
    if (sc && sx && sy)
      for (std::int64_t i = 0; i < n; ++i) o[i] = cr[i] ? xr[i] : yr[i];
    else
      for (std::int64_t i = 0; i < n; ++i) o[i] = cr[i * sc] ? xr[i * sx] : yr[i * sy];
  });
  return ok();
}

template <int Bytes> struct unsigned_of;
template <> struct unsigned_of<1> { using type = std::uint8_t; };
template <> struct unsigned_of<2> { using type = std::uint16_t; };
template <> struct unsigned_of<4> { using type = std::uint32_t; };
template <> struct unsigned_of<8> { using type = std::uint64_t; };

}  // namespace kernels::cpu

template <> struct kernel<ops::Where, cpu> {
  static constexpr std::array types{ops::Where::T};
  template <ops::signature S> static status run(const call<ops::Where>& c) {
    if constexpr (S[0] == dtype::string)
      return kernels::cpu::where_by_width<std::string>(c);
    else
      return kernels::cpu::where_by_width<typename kernels::cpu::unsigned_of<bit_width(S[0]) / 8>::type>(c);
  }
};

}  // namespace onyx
