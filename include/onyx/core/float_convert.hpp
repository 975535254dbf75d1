// onyx/core/float_convert.hpp: float16, bfloat16 and float8 to and from float,
// a whole span at a time.
//
// The one widen/narrow pair kernels and ops share when they compute a narrow
// float type in float32 (or float64). Each function takes the source and a
// destination of the same length that the caller owns, and allocates
// nothing. Results are bit for bit those of the scalar codecs (`to_float`,
// `to_float16`, `to_bfloat16` in dtype.hpp, `float8_to_float`,
// `float_to_float8` in float8.hpp): round to nearest even, NaN stays NaN,
// float16 overflow becomes Inf.
//
// The float16 and bfloat16 loops are branch-free integer code that the
// compiler vectorizes at the baseline ISA (SSE2: 4 lanes); float8 decodes
// through a 256-entry table per format and encodes per element.
// Tested in test/unit/float_convert_test.cpp (every float16, bfloat16 and
// float8 value, and a sweep of float bit patterns).
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <span>

#include "onyx/core/dtype.hpp"
#include "onyx/core/float8.hpp"
#include "onyx/core/tensor.hpp"

namespace onyx {

namespace float_convert_detail {

/// `c ? a : b` as a mask blend: ternaries on these paths become branches
/// (the float arithmetic in one arm may trap), which stops vectorization.
inline std::uint32_t select(bool c, std::uint32_t a, std::uint32_t b) {
  const std::uint32_t m = 0u - static_cast<std::uint32_t>(c);
  return (a & m) | (b & ~m);
}

/// float16 bits to float bits: rebias the exponent; Inf/NaN get the largest
/// exponent; subnormals are rebuilt as (2^-14 + m * 2^-24) - 2^-14 (exact).
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t shifted = std::uint32_t(h & 0x7fffu) << 13;  // exponent and mantissa in float position
  const std::uint32_t exp = shifted & 0x0f800000u;
  const std::uint32_t normal = shifted + (112u << 23);
  const std::uint32_t special = normal + (112u << 23);                             // Inf, NaN: exponent 255
  const float sub = std::bit_cast<float>(normal + (1u << 23)) - 6.103515625e-05f;  // - 2^-14
  const std::uint32_t mag =
      select(exp == 0x0f800000u, special, select(exp == 0, std::bit_cast<std::uint32_t>(sub), normal));
  return std::bit_cast<float>(sign | mag);
}

/// float to float16 bits, as `to_float16`: subnormal results are rounded by
/// adding 0.5f (whose ulp is 2^-24, float16's smallest step), normal ones by
/// integer round-to-nearest-even on the 13 dropped bits.
inline std::uint16_t float_to_half(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t a = u & 0x7fffffffu;
  const std::uint32_t sub = std::bit_cast<std::uint32_t>(std::bit_cast<float>(a) + 0.5f) - 0x3f000000u;
  const std::uint32_t normal = (a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u) >> 13;
  const std::uint32_t mag =
      select(a > 0x7f800000u, 0x7e00u, select(a >= 0x477ff000u, 0x7c00u, select(a < 0x38800000u, sub, normal)));
  return static_cast<std::uint16_t>(sign | mag);
}

/// float to bfloat16 bits, as `to_bfloat16`.
inline std::uint16_t float_to_brain(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t nan = (u >> 16) | 0x40u;
  const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  return static_cast<std::uint16_t>(select((u & 0x7fffffffu) > 0x7f800000u, nan, rounded));
}

/// Every value of a float8 format (or float8e8m0), indexed by its bits.
template <dtype T>
inline constexpr auto float8_table = [] {
  std::array<float, 256> v{};
  for (unsigned b = 0; b < 256; ++b)
    v[b] = T == dtype::float8e8m0 ? float8e8m0_to_float(static_cast<std::uint8_t>(b))
                                  : float8_to_float(static_cast<std::uint8_t>(b), T);
  return v;
}();

inline const std::array<float, 256>* float8_table_of(dtype t) {
  switch (t) {
    case dtype::float8e4m3fn:
      return &float8_table<dtype::float8e4m3fn>;
    case dtype::float8e4m3fnuz:
      return &float8_table<dtype::float8e4m3fnuz>;
    case dtype::float8e5m2:
      return &float8_table<dtype::float8e5m2>;
    case dtype::float8e5m2fnuz:
      return &float8_table<dtype::float8e5m2fnuz>;
    case dtype::float8e8m0:
      return &float8_table<dtype::float8e8m0>;
    default:
      return nullptr;
  }
}

}  // namespace float_convert_detail

/// dst[i] = src[i] as float (exact). dst.size() == src.size().
inline void widen(std::span<const float16_t> src, std::span<float> dst) {
  assert(dst.size() == src.size());
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  const float16_t* s = src.data();
  float* d = dst.data();
  for (std::size_t i = 0; i < n; ++i) d[i] = float_convert_detail::half_to_float(s[i].bits);
}
inline void widen(std::span<const bfloat16_t> src, std::span<float> dst) {
  assert(dst.size() == src.size());
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  const bfloat16_t* s = src.data();
  float* d = dst.data();
  for (std::size_t i = 0; i < n; ++i) d[i] = std::bit_cast<float>(std::uint32_t{s[i].bits} << 16);
}

/// dst[i] = src[i] rounded to nearest even. dst.size() == src.size().
inline void narrow(std::span<const float> src, std::span<float16_t> dst) {
  assert(dst.size() == src.size());
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  const float* s = src.data();
  float16_t* d = dst.data();
  for (std::size_t i = 0; i < n; ++i) d[i].bits = float_convert_detail::float_to_half(s[i]);
}
inline void narrow(std::span<const float> src, std::span<bfloat16_t> dst) {
  assert(dst.size() == src.size());
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  const float* s = src.data();
  bfloat16_t* d = dst.data();
  for (std::size_t i = 0; i < n; ++i) d[i].bits = float_convert_detail::float_to_brain(s[i]);
}

/// dst[i] = the float value of float8 bits src[i] in format `t` (a float8
/// type or float8e8m0). dst.size() == src.size().
inline void widen(std::span<const std::uint8_t> src, dtype t, std::span<float> dst) {
  assert(dst.size() == src.size());
  const auto* table = float_convert_detail::float8_table_of(t);
  assert(table);
  if (!table) return;  // not a float8 type: dst is left as it is
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  for (std::size_t i = 0; i < n; ++i) dst[i] = (*table)[src[i]];
}

/// dst[i] = src[i] as float8 bits of format `t` (a float8 type: `saturate` as
/// in Cast; float8e8m0: `saturate` and `rounding` as in Cast).
inline void narrow(std::span<const float> src, std::span<std::uint8_t> dst, dtype t, bool saturate = true,
                   e8m0_rounding rounding = e8m0_rounding::up) {
  assert(dst.size() == src.size());
  const std::size_t n = std::min(src.size(), dst.size());  // never past either end
  if (t == dtype::float8e8m0) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = float_to_float8e8m0(src[i], saturate, rounding);
  } else {
    for (std::size_t i = 0; i < n; ++i) dst[i] = float_to_float8(src[i], t, saturate);
  }
}

/// dst[i] = element i of `t` as D (float or double), for t of type float32,
/// float64, float16, bfloat16, a float8 type or float8e8m0; narrow types go
/// through float, so float64 -> float is the only rounding. Other types
/// leave dst as it is. dst.size() == t.size().
template <class D>
void widen(const tensor& t, std::span<D> dst) {
  static_assert(std::is_same_v<D, float> || std::is_same_v<D, double>);
  if (static_cast<std::int64_t>(dst.size()) != t.size())
    throw_error(status(errc::invalid_argument, "widen: " + std::to_string(dst.size()) + " destination elements for a tensor of " +
                                                   std::to_string(t.size())));
  auto copy = [&](auto tag) {
    using S = decltype(tag);
    const S* p = t.data<S>();
    for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = static_cast<D>(p[i]);
  };
  // A narrow source widens to float in blocks; double destinations go through a stack buffer.
  auto through_float = [&](auto widen_block) {
    if constexpr (std::is_same_v<D, float>) {
      widen_block(std::size_t{0}, dst);
    } else {
      float buf[256];
      for (std::size_t b = 0; b < dst.size(); b += 256) {
        const std::size_t m = std::min<std::size_t>(256, dst.size() - b);
        widen_block(b, std::span<float>(buf, m));
        for (std::size_t i = 0; i < m; ++i) dst[b + i] = buf[i];
      }
    }
  };
  switch (t.type()) {
    case dtype::float32:
      copy(float{});
      break;
    case dtype::float64:
      copy(double{});
      break;
    case dtype::float16:
      through_float(
          [&](std::size_t b, std::span<float> out) { widen(t.values<float16_t>().subspan(b, out.size()), out); });
      break;
    case dtype::bfloat16:
      through_float(
          [&](std::size_t b, std::span<float> out) { widen(t.values<bfloat16_t>().subspan(b, out.size()), out); });
      break;
    case dtype::float8e4m3fn:
    case dtype::float8e4m3fnuz:
    case dtype::float8e5m2:
    case dtype::float8e5m2fnuz:
    case dtype::float8e8m0:
      through_float([&](std::size_t b, std::span<float> out) {
        widen(t.values<std::uint8_t>().subspan(b, out.size()), t.type(), out);
      });
      break;
    default:
      break;
  }
}

/// Element i of `t` = src[i] (float or double) rounded to t's type, for the
/// types `widen` takes; double narrows through float for the narrow types (as
/// `store`). Float8 types saturate. Other types leave t as it is.
/// src.size() == t.size().
template <class S>
void narrow(std::span<const S> src, tensor& t) {
  static_assert(std::is_same_v<S, float> || std::is_same_v<S, double>);
  if (static_cast<std::int64_t>(src.size()) != t.size())
    throw_error(status(errc::invalid_argument, "narrow: " + std::to_string(src.size()) + " source elements for a tensor of " +
                                                   std::to_string(t.size())));
  auto copy = [&](auto tag) {
    using D = decltype(tag);
    D* p = t.data<D>();
    for (std::size_t i = 0; i < src.size(); ++i) p[i] = static_cast<D>(src[i]);
  };
  auto through_float = [&](auto narrow_block) {
    if constexpr (std::is_same_v<S, float>) {
      narrow_block(std::size_t{0}, src);
    } else {
      float buf[256];
      for (std::size_t b = 0; b < src.size(); b += 256) {
        const std::size_t m = std::min<std::size_t>(256, src.size() - b);
        for (std::size_t i = 0; i < m; ++i) buf[i] = static_cast<float>(src[b + i]);
        narrow_block(b, std::span<const float>(buf, m));
      }
    }
  };
  switch (t.type()) {
    case dtype::float32:
      copy(float{});
      break;
    case dtype::float64:
      copy(double{});
      break;
    case dtype::float16:
      through_float(
          [&](std::size_t b, std::span<const float> in) { narrow(in, t.values<float16_t>().subspan(b, in.size())); });
      break;
    case dtype::bfloat16:
      through_float(
          [&](std::size_t b, std::span<const float> in) { narrow(in, t.values<bfloat16_t>().subspan(b, in.size())); });
      break;
    case dtype::float8e4m3fn:
    case dtype::float8e4m3fnuz:
    case dtype::float8e5m2:
    case dtype::float8e5m2fnuz:
    case dtype::float8e8m0:
      through_float([&](std::size_t b, std::span<const float> in) {
        narrow(in, t.values<std::uint8_t>().subspan(b, in.size()), t.type());
      });
      break;
    default:
      break;
  }
}

}  // namespace onyx
