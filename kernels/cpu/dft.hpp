// kernel<ops::DFT, cpu>, kernel<ops::STFT, cpu>: direct transforms in double,
// O(L * bins) per line from a table of the L roots of unity (index k*n mod L,
// so no angle is recomputed). Lines (and STFT frames) split over the pool.
#pragma once

#include <complex>
#include <numbers>
#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/dft.hpp"
#include "onyx/ops/stft.hpp"

namespace onyx {

namespace kernels::cpu {

using cplx = std::complex<double>;

/// e^{-2 pi i m / L} (forward) or e^{+2 pi i m / L} (inverse), m in [0, L).
inline std::vector<cplx> unit_roots(std::int64_t length, bool inverse) {
  std::vector<cplx> w(static_cast<std::size_t>(length));
  for (std::int64_t m = 0; m < length; ++m) {
    double t = 2 * std::numbers::pi * static_cast<double>(m) / static_cast<double>(length);
    w[m] = {std::cos(t), inverse ? std::sin(t) : -std::sin(t)};
  }
  return w;
}

/// out[k] = sum_n in[n] w[k n mod L] for k < bins; `in` has L entries.
inline void dft_line(const cplx* in, std::int64_t length, const std::vector<cplx>& w, std::int64_t bins, cplx* out) {
  for (std::int64_t k = 0; k < bins; ++k) {
    cplx s = 0;
    for (std::int64_t n = 0, m = 0; n < length; ++n, m = (m + k) % length) s += in[n] * w[m];
    out[k] = s;
  }
}

template <class T> status dft(const call<ops::DFT>& c) {
  const auto& a = c.attrs();
  const tensor& x = c.input(0);
  const auto r = static_cast<std::int64_t>(x.rank());
  std::int64_t axis = -2;
  if (c.has_input(2)) axis = c.input(2).data<std::int64_t>()[0];
  if (axis < 0) axis += r;
  if (r < 2 || axis < 0 || axis >= r - 1)
    return status(errc::invalid_argument, "axis is out of range for input " + sym_shape(x.shape()).str());
  const std::int64_t comps = x.dim(r - 1), n_in = x.dim(axis);
  const bool irfft = a.onesided && a.inverse, rfft = a.onesided && !a.inverse;
  std::int64_t length = irfft ? 2 * (n_in - 1) : n_in;
  if (c.has_input(1))
    length = c.input(1).type() == dtype::int64 ? c.input(1).data<std::int64_t>()[0] : c.input(1).data<std::int32_t>()[0];
  if (length < 1) return status(errc::invalid_argument, "dft_length " + std::to_string(length) + " must be positive");
  if (rfft && comps != 1) return status(errc::invalid_argument, "onesided forward DFT needs a real input");
  const std::int64_t bins = rfft ? length / 2 + 1 : length, out_comps = irfft ? 1 : 2;
  extents out = x.shape();
  out[axis] = bins;
  out[r - 1] = out_comps;
  tensor& y = c.allocate_output(0, x.type(), out);
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= x.dim(d);
  for (std::int64_t d = axis + 1; d < r - 1; ++d) inner *= x.dim(d);
  const auto w = unit_roots(length, a.inverse != 0);
  const double scale = a.inverse ? 1.0 / static_cast<double>(length) : 1.0;
  const T* xs = x.data<T>();
  T* ys = y.data<T>();
  parallel_for(c.pool(), outer * inner, 1, [&](std::int64_t first, std::int64_t last) {
    std::vector<cplx> in(static_cast<std::size_t>(length)), res(static_cast<std::size_t>(bins));
    for (std::int64_t line = first; line < last; ++line) {
      const std::int64_t o = line / inner, i = line % inner;
      auto at = [&](std::int64_t n) {
        const T* p = xs + ((o * n_in + n) * inner + i) * comps;
        return cplx(load(p[0]), comps == 2 ? static_cast<double>(load(p[1])) : 0.0);
      };
      if (irfft) {  // Hermitian extension of bins [0, L/2]
        const std::int64_t half = length / 2 + 1;
        for (std::int64_t k = 0; k < length; ++k) {
          std::int64_t src = k < half ? k : length - k;
          cplx v = src < n_in ? at(src) : cplx(0);
          in[k] = k < half ? v : std::conj(v);
        }
      } else {
        for (std::int64_t n = 0; n < length; ++n) in[n] = n < n_in ? at(n) : cplx(0);
      }
      dft_line(in.data(), length, w, bins, res.data());
      for (std::int64_t k = 0; k < bins; ++k) {
        T* p = ys + ((o * bins + k) * inner + i) * out_comps;
        p[0] = store<T>(res[k].real() * scale);
        if (out_comps == 2) p[1] = store<T>(res[k].imag() * scale);
      }
    }
  });
  return ok();
}

template <class T> status stft(const call<ops::STFT>& c) {
  const tensor& x = c.input(0);
  if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2))
    return status(errc::invalid_argument, "signal must be [batch, length, 1 or 2], got " + sym_shape(x.shape()).str());
  auto scalar = [&](int i) {
    const tensor& t = c.input(i);
    return t.type() == dtype::int64 ? t.data<std::int64_t>()[0] : std::int64_t{t.data<std::int32_t>()[0]};
  };
  const std::int64_t batch = x.dim(0), len = x.dim(1), comps = x.dim(2), step = scalar(1);
  const bool has_window = c.has_input(2);
  const std::int64_t length = c.has_input(3) ? scalar(3) : has_window ? c.input(2).size() : len;
  if (step < 1 || length < 1 || length > len)
    return status(errc::invalid_argument, "frame_step " + std::to_string(step) + " and frame_length " +
                                              std::to_string(length) + " do not fit a signal of " + std::to_string(len));
  if (has_window && c.input(2).size() != length)
    return status(errc::invalid_argument, "window has " + std::to_string(c.input(2).size()) + " values, frame_length is " +
                                              std::to_string(length));
  if (c.attrs().onesided && comps != 1) return status(errc::invalid_argument, "onesided STFT needs a real signal");
  const std::int64_t frames = (len - length) / step + 1, bins = c.attrs().onesided ? length / 2 + 1 : length;
  tensor& y = c.allocate_output(0, x.type(), {batch, frames, bins, 2});
  const auto w = unit_roots(length, false);
  const T* xs = x.data<T>();
  const T* win = has_window ? c.input(2).data<T>() : nullptr;
  T* ys = y.data<T>();
  parallel_for(c.pool(), batch * frames, 1, [&](std::int64_t first, std::int64_t last) {
    std::vector<cplx> in(static_cast<std::size_t>(length)), res(static_cast<std::size_t>(bins));
    for (std::int64_t f = first; f < last; ++f) {
      const std::int64_t b = f / frames, start = (f % frames) * step;
      for (std::int64_t n = 0; n < length; ++n) {
        const T* p = xs + (b * len + start + n) * comps;
        double g = win ? static_cast<double>(load(win[n])) : 1.0;
        in[n] = cplx(load(p[0]), comps == 2 ? static_cast<double>(load(p[1])) : 0.0) * g;
      }
      dft_line(in.data(), length, w, bins, res.data());
      for (std::int64_t k = 0; k < bins; ++k) {
        ys[(f * bins + k) * 2] = store<T>(res[k].real());
        ys[(f * bins + k) * 2 + 1] = store<T>(res[k].imag());
      }
    }
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::DFT, cpu> {
  static constexpr std::array types{ops::DFT::T1};
  template <ops::signature S> static status run(const call<ops::DFT>& c) { return kernels::cpu::dft<storage_t<S[0]>>(c); }
};

template <> struct kernel<ops::STFT, cpu> {
  static constexpr std::array types{ops::STFT::T1};
  template <ops::signature S> static status run(const call<ops::STFT>& c) {
    return kernels::cpu::stft<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
