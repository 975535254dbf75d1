// kernels/cpu/qlinear.hpp: what the com.microsoft QLinear* kernels share:
// reading per-tensor scales and zero points, requantizing a float value
// (round half to even, then saturate, as ONNX Runtime's MlasQuantizeLinear),
// and 256-entry tables that map every 8-bit input value to its result, so a
// unary op with per-tensor parameters is one table lookup per element.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "kernels/cpu/isa/q8.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/ops/op.hpp"

namespace onyx::kernels::cpu::qlinear {

/// The element type of signature S (int8 or uint8).
template <ops::signature S> using type = std::conditional_t<S[0] == dtype::int8, std::int8_t, std::uint8_t>;

/// Input `i` (a float32 scalar or [1]) as a positive finite scale.
template <class Call> result<float> scale(const Call& c, int i, std::string_view what) {
  const tensor& t = c.input(i);
  if (t.size() != 1) return status(errc::invalid_argument, std::string(what) + " must hold one value");
  const float s = t.template data<float>()[0];
  if (!(s > 0) || !std::isfinite(s))
    return status(errc::invalid_argument, std::string(what) + " must be a positive finite number, not " + std::to_string(s));
  return s;
}

/// Input `i` (a scalar or [1] of T) as an int; 0 when absent.
template <class T, class Call> result<int> zero_point(const Call& c, int i, std::string_view what) {
  if (!c.has_input(i)) return 0;
  const tensor& t = c.input(i);
  if (t.size() != 1) return status(errc::invalid_argument, std::string(what) + " must hold one value");
  return static_cast<int>(t.template data<T>()[0]);
}

/// round(v) + zero_point, saturated to T (v already divided by the scale).
template <class T> T saturate_round(float v, int zero_point) {
  constexpr float lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  const float q = std::nearbyint(v) + static_cast<float>(zero_point);
  return static_cast<T>(std::clamp(q, lo, hi));
}

/// The table index of an 8-bit value: its bits.
template <class T> std::uint8_t index(T v) { return static_cast<std::uint8_t>(v); }

using table = std::array<std::uint8_t, 256>;

/// table[bits of x] = saturate(round(f(x_scale (x - x_zp)) / y_scale) + y_zp),
/// stored as bits of T.
template <class T, class F> table make_table(float x_scale, int x_zp, float y_scale, int y_zp, F f) {
  table t;
  for (int b = 0; b < 256; ++b) {
    T x;
    const auto bits = static_cast<std::uint8_t>(b);
    std::memcpy(&x, &bits, 1);
    const float v = f(x_scale * static_cast<float>(static_cast<int>(x) - x_zp));
    const T y = saturate_round<T>(v / y_scale, y_zp);
    std::memcpy(&t[b], &y, 1);
  }
  return t;
}

/// y[i] = table[x[i]] over n bytes, split over the pool.
inline void lookup(const table& t, const std::uint8_t* x, std::uint8_t* y, std::int64_t n, const thread_pool* pool) {
  const isa::u8_lookup_fn f = isa::u8_lookup();
  parallel_for(pool, n, grain_for(1), [&](std::int64_t b, std::int64_t e) { f(t.data(), x + b, y + b, e - b); });
}

}  // namespace onyx::kernels::cpu::qlinear
