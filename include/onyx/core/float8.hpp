// onyx/core/float8.hpp: scalar codecs of the 8- and 4-bit float types.
//
// float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz (sign, E exponent
// bits, M mantissa bits, subnormals), float8e8m0 (a bare power of two) and
// float4e2m1 (one nibble). Decoding is exact. Encoding from float rounds to
// nearest even on the value, then applies the spec's out-of-range rules
// (Operators.md, Cast):
//   saturate = true:  |x| > max and +-Inf become +-max; NaN stays NaN
//   saturate = false: overflow becomes Inf (e5m2) or NaN (the others)
// "fn" formats have no Inf and one NaN mantissa per sign (S.1111.111);
// "fnuz" formats have no Inf, no -0 and one NaN, 0x80. float4e2m1 has neither
// Inf nor NaN: it always saturates, and NaN encodes as 0x8 (-0), which is what
// the ONNX backend tests (generated with ml_dtypes) expect; the technical note
// docs/technical/float4.md says 6 instead.
// float8e8m0 follows onnx.numpy_helper.to_float8e8m0: the float's exponent
// field, rounded up/down/nearest by its mantissa; 0xFF is NaN (and Inf).
// Tested exhaustively over all byte values in test/unit/float8_test.cpp.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "onyx/core/dtype.hpp"

namespace onyx {

/// Layout of one float8 format.
struct float8_format {
  int exponent_bits, mantissa_bits, bias;
  bool fnuz;          ///< no -0, NaN = 0x80, no Inf
  bool has_inf;       ///< IEEE-style Inf and NaNs (e5m2)
  std::uint8_t max;   ///< bits of the largest finite value
};

constexpr float8_format float8_format_of(dtype t) {
  switch (t) {
    case dtype::float8e4m3fn: return {4, 3, 7, false, false, 0x7e};
    case dtype::float8e4m3fnuz: return {4, 3, 8, true, false, 0x7f};
    case dtype::float8e5m2: return {5, 2, 15, false, true, 0x7b};
    case dtype::float8e5m2fnuz: return {5, 2, 16, true, false, 0x7f};
    default: return {2, 1, 1, false, false, 0x07};  // float4e2m1 (sign at bit 3)
  }
}

namespace float8_detail {

/// 2^e as float, for e within float's normal and subnormal range.
constexpr float exp2i(int e) {
  if (e >= -126) return std::bit_cast<float>(static_cast<std::uint32_t>(e + 127) << 23);
  return std::bit_cast<float>(std::uint32_t{1} << (e + 149));
}

/// Magnitude bits (no sign) of finite non-negative `a` rounded to nearest even
/// in a format with mantissa M and bias B; may exceed the format's max.
constexpr std::uint32_t round_magnitude(float a, int M, int B) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(a);
  int biased = static_cast<int>(u >> 23);
  if (biased == 0) return 0;  // float subnormals are far below every format's smallest value
  int e = biased - 127;
  std::uint32_t sig = (u & 0x7fffffu) | 0x800000u;  // a = sig * 2^(e - 23)
  int low = e > 1 - B ? e : 1 - B;                   // exponent of the target's leading bit
  int shift = low - e + 23 - M;                      // bits of sig below the target's quantum
  if (shift > 25) return 0;                          // below half the smallest subnormal
  std::uint32_t r = sig >> shift, rem = sig & ((std::uint32_t{1} << shift) - 1), half = std::uint32_t{1} << (shift - 1);
  if (rem > half || (rem == half && (r & 1u))) ++r;
  // Subnormal range: the bits are r itself (r = 2^M carries into exponent 1).
  // Normal range: exponent field e + B, implicit bit dropped; a mantissa
  // carry again flows into the exponent.
  return (static_cast<std::uint32_t>(low + B - 1) << M) + r;
}

}  // namespace float8_detail

/// The float value of float8 bits `b` of format `t` (exact).
constexpr float float8_to_float(std::uint8_t b, dtype t) {
  const float8_format f = float8_format_of(t);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  if (f.fnuz && b == 0x80) return nan;
  bool negative = b & 0x80;
  unsigned mag = b & 0x7fu;
  unsigned exp = mag >> f.mantissa_bits, man = mag & ((1u << f.mantissa_bits) - 1);
  unsigned exp_all = (1u << f.exponent_bits) - 1;
  if (f.has_inf && exp == exp_all) {
    float v = man ? nan : std::numeric_limits<float>::infinity();
    return negative ? -v : v;
  }
  if (!f.fnuz && !f.has_inf && mag == 0x7f) return negative ? -nan : nan;
  float v = exp == 0 ? static_cast<float>(man) * float8_detail::exp2i(1 - f.bias - f.mantissa_bits)
                     : static_cast<float>((1u << f.mantissa_bits) | man) *
                           float8_detail::exp2i(static_cast<int>(exp) - f.bias - f.mantissa_bits);
  return negative ? -v : v;
}

/// `x` as float8 format `t`, rounded to nearest even; `saturate` as in Cast.
constexpr std::uint8_t float_to_float8(float x, dtype t, bool saturate = true) {
  const float8_format f = float8_format_of(t);
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  std::uint8_t sign = (u >> 24) & 0x80u;
  std::uint32_t a = u & 0x7fffffffu;
  std::uint8_t nan = f.fnuz ? 0x80 : f.has_inf ? static_cast<std::uint8_t>(sign | 0x7e) : static_cast<std::uint8_t>(sign | 0x7f);
  if (a > 0x7f800000u) return nan;
  std::uint8_t overflow = saturate ? static_cast<std::uint8_t>(sign | f.max)
                                   : f.has_inf ? static_cast<std::uint8_t>(sign | 0x7c) : nan;
  if (a == 0x7f800000u) return overflow;
  std::uint32_t bits = float8_detail::round_magnitude(std::bit_cast<float>(a), f.mantissa_bits, f.bias);
  if (bits > f.max) return overflow;
  if (bits == 0 && f.fnuz) return 0;
  return static_cast<std::uint8_t>(sign | bits);
}

/// The float value of a float4e2m1 nibble (low 4 bits of `b`).
constexpr float float4e2m1_to_float(std::uint8_t b) {
  constexpr float values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  float v = values[b & 7u];
  return b & 8u ? -v : v;
}

/// `x` as a float4e2m1 nibble: round to nearest even, saturate at +-6.
constexpr std::uint8_t float_to_float4e2m1(float x) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  std::uint8_t sign = (u >> 28) & 0x8u;
  std::uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return 0x8;
  if (a == 0x7f800000u) return sign | 0x7;
  std::uint32_t bits = float8_detail::round_magnitude(std::bit_cast<float>(a), 1, 1);
  return static_cast<std::uint8_t>(sign | (bits > 7 ? 7 : bits));
}

/// Rounding of Cast's `round_mode` for float8e8m0.
enum class e8m0_rounding { up, down, nearest };

/// The float value of float8e8m0 bits: 2^(b - 127); 0xFF is NaN.
constexpr float float8e8m0_to_float(std::uint8_t b) {
  if (b == 0xff) return std::numeric_limits<float>::quiet_NaN();
  return float8_detail::exp2i(static_cast<int>(b) - 127);
}

/// `x` (non-negative; the sign is ignored) as float8e8m0.
constexpr std::uint8_t float_to_float8e8m0(float x, bool saturate = true, e8m0_rounding mode = e8m0_rounding::up) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  std::uint32_t exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
  if (exp == 0xff) return 0xff;
  bool up = false;
  if (mode == e8m0_rounding::up) {
    up = man != 0;
  } else if (mode == e8m0_rounding::nearest) {
    bool guard = man & 0x400000u, rest = man & 0x3fffffu;
    up = guard && (rest || exp > 0);
  }
  if (up && saturate && exp == 0xfe) up = false;
  return static_cast<std::uint8_t>(exp + (up ? 1 : 0));
}

}  // namespace onyx
