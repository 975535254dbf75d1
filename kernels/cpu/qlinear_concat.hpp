// kernel<ops::QLinearConcat, cpu>: Concat with each input requantized to Y's
// scale and zero point through a 256-entry table (a plain copy when the input
// already has them). The output is `outer` rows (the dims before the axis);
// each input fills its slice of every row. Split over the pool by rows.
#pragma once

#include <cstring>
#include <optional>
#include <vector>

#include "kernels/cpu/qlinear.hpp"
#include "onyx/ops/qlinear_concat.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T> status qlinear_concat(const call<ops::QLinearConcat>& c) {
  ONYX_ASSIGN(float ys, qlinear::scale(c, 0, "Y_scale"));
  ONYX_ASSIGN(int yz, qlinear::zero_point<T>(c, 1, "Y_zero_point"));
  tensor& y = c.output(0);
  const auto& out_shape = y.shape();
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, out_shape.size()));
  std::int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= out_shape[d];
  struct part {
    const std::uint8_t* data;
    std::int64_t width;  // elements per output row
    std::optional<qlinear::table> table;
  };
  std::vector<part> parts;
  for (int i = 2; i < c.input_count(); i += 3) {
    const std::string what = "X" + std::to_string((i - 2) / 3);
    ONYX_ASSIGN(float xs, qlinear::scale(c, i + 1, what + "_scale"));
    ONYX_ASSIGN(int xz, qlinear::zero_point<T>(c, i + 2, what + "_zero_point"));
    const tensor& x = c.input(i);
    part p{static_cast<const std::uint8_t*>(x.raw()), outer ? x.size() / outer : 0, std::nullopt};
    if (xs != ys || xz != yz) p.table = qlinear::make_table<T>(xs, xz, ys, yz, [](float v) { return v; });
    parts.push_back(std::move(p));
  }
  std::int64_t row = 0;
  for (const auto& p : parts) row += p.width;
  auto* out = static_cast<std::uint8_t*>(y.raw());
  parallel_for(c.pool(), outer, std::max<std::int64_t>(1, grain_for(1) / std::max<std::int64_t>(row, 1)),
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; ++r) {
                   std::uint8_t* dst = out + r * row;
                   for (const auto& p : parts) {
                     const std::uint8_t* src = p.data + r * p.width;
                     if (p.table)
                       for (std::int64_t i = 0; i < p.width; ++i) dst[i] = (*p.table)[src[i]];
                     else if (p.width)
                       std::memcpy(dst, src, static_cast<std::size_t>(p.width));
                     dst += p.width;
                   }
                 }
               });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QLinearConcat, cpu> {
  static constexpr std::array types{ops::QLinearConcat::T};
  template <ops::signature S> static status run(const call<ops::QLinearConcat>& c) {
    return kernels::cpu::qlinear_concat<kernels::cpu::qlinear::type<S>>(c);
  }
};

}  // namespace onyx
