// kernel<ops::HannWindow | HammingWindow | BlackmanWindow, cpu>: the cosine
// sum of the op's coefficients per element in double, encoded as the output
// type by the Cast codecs. Keyed by the size input's type only.
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

#include "kernels/cpu/cast.hpp"
#include "onyx/ops/blackman_window.hpp"
#include "onyx/ops/hamming_window.hpp"
#include "onyx/ops/hann_window.hpp"

namespace onyx {

namespace kernels::cpu {

template <class Op> status cosine_window(const call<Op>& c) {
  const tensor& s = c.input(0);
  if (s.size() != 1) return status(errc::invalid_argument, "size must hold one value");
  std::int64_t n = s.type() == dtype::int64 ? s.data<std::int64_t>()[0] : s.data<std::int32_t>()[0];
  if (n < 0) return status(errc::invalid_argument, "size " + std::to_string(n) + " is negative");
  tensor& y = c.allocate_output(0, static_cast<dtype>(c.attrs().output_datatype), {n});
  const double period = static_cast<double>(c.attrs().periodic ? n : n - 1);
  constexpr auto k = Op::coefficients;
  std::vector<double> w(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    double x = 2 * std::numbers::pi * static_cast<double>(i) / period;
    w[i] = k.a0 - k.a1 * std::cos(x) + k.a2 * std::cos(2 * x);
  }
  encode_block(y, 0, n, w.data(), nullptr, false, cast_options{});
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::HannWindow, cpu> {
  static constexpr std::array types{ops::HannWindow::T1};
  template <ops::signature> static status run(const call<ops::HannWindow>& c) { return kernels::cpu::cosine_window(c); }
};
template <> struct kernel<ops::HammingWindow, cpu> {
  static constexpr std::array types{ops::HammingWindow::T1};
  template <ops::signature> static status run(const call<ops::HammingWindow>& c) { return kernels::cpu::cosine_window(c); }
};
template <> struct kernel<ops::BlackmanWindow, cpu> {
  static constexpr std::array types{ops::BlackmanWindow::T1};
  template <ops::signature> static status run(const call<ops::BlackmanWindow>& c) {
    return kernels::cpu::cosine_window(c);
  }
};

}  // namespace onyx
