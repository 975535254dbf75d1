// onyx/core/dtype.hpp: ONNX element types as values.
//
// `dtype` carries the numeric codes of onnx.TensorProto.DataType, so a model's
// type code is a dtype without translation. Every ONNX element type is known
// here; sub-byte types (int4, uint4, int2, uint2, float4e2m1) are packed
// little-end-first, several per byte, as the spec stores them.
// `dtype_set` is a constexpr bit set of dtypes: ops declare their type
// constraints (`T`, `Tind`) as sets, which the registry expands into kernel
// signatures without ever building type lists.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace onyx {

enum class dtype : std::uint8_t {
  undefined = 0,
  float32 = 1,
  uint8 = 2,
  int8 = 3,
  uint16 = 4,
  int16 = 5,
  int32 = 6,
  int64 = 7,
  string = 8,
  boolean = 9,
  float16 = 10,
  float64 = 11,
  uint32 = 12,
  uint64 = 13,
  complex64 = 14,
  complex128 = 15,
  bfloat16 = 16,
  float8e4m3fn = 17,
  float8e4m3fnuz = 18,
  float8e5m2 = 19,
  float8e5m2fnuz = 20,
  uint4 = 21,
  int4 = 22,
  float4e2m1 = 23,
  float8e8m0 = 24,
  uint2 = 25,
  int2 = 26,
};

inline constexpr int dtype_count = 27;

/// Bits one element occupies in storage (strings: 0, they are not packed).
constexpr int bit_width(dtype t) {
  switch (t) {
    case dtype::boolean:
    case dtype::uint8:
    case dtype::int8:
    case dtype::float8e4m3fn:
    case dtype::float8e4m3fnuz:
    case dtype::float8e5m2:
    case dtype::float8e5m2fnuz:
    case dtype::float8e8m0: return 8;
    case dtype::uint16:
    case dtype::int16:
    case dtype::float16:
    case dtype::bfloat16: return 16;
    case dtype::float32:
    case dtype::int32:
    case dtype::uint32: return 32;
    case dtype::float64:
    case dtype::int64:
    case dtype::uint64:
    case dtype::complex64: return 64;
    case dtype::complex128: return 128;
    case dtype::uint4:
    case dtype::int4:
    case dtype::float4e2m1: return 4;
    case dtype::uint2:
    case dtype::int2: return 2;
    case dtype::string: return 8 * sizeof(void*) * 4;  // std::string objects
    case dtype::undefined: return 0;
  }
  return 0;
}

/// Bytes needed to store `n` elements of `t` (sub-byte types round up).
constexpr std::size_t storage_bytes(dtype t, std::int64_t n) {
  return (static_cast<std::size_t>(n) * bit_width(t) + 7) / 8;
}

constexpr std::string_view name(dtype t) {
  constexpr std::string_view names[dtype_count] = {
      "undefined", "float32",        "uint8",      "int8",           "uint16",    "int16",
      "int32",     "int64",          "string",     "bool",           "float16",   "float64",
      "uint32",    "uint64",         "complex64",  "complex128",     "bfloat16",  "float8e4m3fn",
      "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",     "int4",      "float4e2m1",
      "float8e8m0", "uint2",         "int2"};
  auto i = static_cast<int>(t);
  return i < dtype_count ? names[i] : "invalid";
}

constexpr bool is_valid(int code) { return code > 0 && code < dtype_count; }

/// A constexpr set of dtypes.
struct dtype_set {
  std::uint32_t bits = 0;

  constexpr dtype_set() = default;
  constexpr dtype_set(dtype t) : bits(1u << static_cast<int>(t)) {}
  constexpr explicit dtype_set(std::uint32_t b, int) : bits(b) {}

  constexpr bool contains(dtype t) const { return (bits >> static_cast<int>(t)) & 1u; }
  constexpr int size() const { return std::popcount(bits); }
  constexpr bool empty() const { return bits == 0; }
  /// The i-th member in code order.
  constexpr dtype operator[](int i) const {
    std::uint32_t b = bits;
    for (; i > 0; --i) b &= b - 1;
    return static_cast<dtype>(std::countr_zero(b));
  }
  friend constexpr dtype_set operator|(dtype_set a, dtype_set b) { return dtype_set(a.bits | b.bits, 0); }
  friend constexpr dtype_set operator&(dtype_set a, dtype_set b) { return dtype_set(a.bits & b.bits, 0); }
  friend constexpr dtype_set operator-(dtype_set a, dtype_set b) { return dtype_set(a.bits & ~b.bits, 0); }
  friend constexpr bool operator==(dtype_set, dtype_set) = default;
};

namespace dtypes {
inline constexpr dtype_set f32{dtype::float32};
inline constexpr dtype_set f64{dtype::float64};
inline constexpr dtype_set f16{dtype::float16};
inline constexpr dtype_set bf16{dtype::bfloat16};
inline constexpr dtype_set i8{dtype::int8}, i16{dtype::int16}, i32{dtype::int32}, i64{dtype::int64};
inline constexpr dtype_set u8{dtype::uint8}, u16{dtype::uint16}, u32{dtype::uint32}, u64{dtype::uint64};
inline constexpr dtype_set boolean{dtype::boolean};
inline constexpr dtype_set string{dtype::string};
inline constexpr dtype_set float8 = dtype_set{dtype::float8e4m3fn} | dtype::float8e4m3fnuz |
                                     dtype::float8e5m2 | dtype::float8e5m2fnuz;
inline constexpr dtype_set sub_byte =
    dtype_set{dtype::int4} | dtype::uint4 | dtype::int2 | dtype::uint2 | dtype::float4e2m1;
inline constexpr dtype_set floats = f32 | f64 | f16 | bf16;
inline constexpr dtype_set signed_ints = i8 | i16 | i32 | i64;
inline constexpr dtype_set unsigned_ints = u8 | u16 | u32 | u64;
inline constexpr dtype_set ints = signed_ints | unsigned_ints;
inline constexpr dtype_set numeric = floats | ints;
inline constexpr dtype_set indices = i32 | i64;
/// Every type a tensor may hold (complex and the packed/fp8 types as storage only).
inline constexpr dtype_set all = numeric | boolean | string | float8 | sub_byte |
                                 dtype_set{dtype::complex64} | dtype::complex128 | dtype::float8e8m0;
}  // namespace dtypes

// ---------------------------------------------------------------------------
// Half-precision storage types and their conversions to float.

struct float16_t {
  std::uint16_t bits;
};
struct bfloat16_t {
  std::uint16_t bits;
};

constexpr float to_float(bfloat16_t h) { return std::bit_cast<float>(std::uint32_t{h.bits} << 16); }
constexpr bfloat16_t to_bfloat16(float f) {
  auto u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return {static_cast<std::uint16_t>((u >> 16) | 0x40)};  // NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return {static_cast<std::uint16_t>(u >> 16)};
}

constexpr float to_float(float16_t h) {
  std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
  std::uint32_t exp = (h.bits >> 10) & 0x1fu;
  std::uint32_t man = h.bits & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return std::bit_cast<float>(sign);
    float v = static_cast<float>(man) * (1.0f / 16777216.0f);  // man * 2^-24
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

constexpr float16_t to_float16(float f) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  std::uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return {static_cast<std::uint16_t>(sign | 0x7e00u)};  // NaN
  if (a >= 0x477ff000u) return {static_cast<std::uint16_t>(sign | 0x7c00u)};  // overflow to inf
  if (a < 0x38800000u) {  // subnormal half or zero: round man * 2^-24
    float v = std::bit_cast<float>(a) * 16777216.0f;
    // round half to even
    auto r = static_cast<std::uint32_t>(v);
    float frac = v - static_cast<float>(r);
    if (frac > 0.5f || (frac == 0.5f && (r & 1u))) ++r;
    return {static_cast<std::uint16_t>(sign | r)};
  }
  std::uint32_t rounded = a + 0xfffu + ((a >> 13) & 1u);
  return {static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13))};
}

// ---------------------------------------------------------------------------
// dtype <-> C++ type.

template <dtype T> struct storage_of;
template <> struct storage_of<dtype::float32> { using type = float; };
template <> struct storage_of<dtype::float64> { using type = double; };
template <> struct storage_of<dtype::float16> { using type = float16_t; };
template <> struct storage_of<dtype::bfloat16> { using type = bfloat16_t; };
template <> struct storage_of<dtype::int8> { using type = std::int8_t; };
template <> struct storage_of<dtype::int16> { using type = std::int16_t; };
template <> struct storage_of<dtype::int32> { using type = std::int32_t; };
template <> struct storage_of<dtype::int64> { using type = std::int64_t; };
template <> struct storage_of<dtype::uint8> { using type = std::uint8_t; };
template <> struct storage_of<dtype::uint16> { using type = std::uint16_t; };
template <> struct storage_of<dtype::uint32> { using type = std::uint32_t; };
template <> struct storage_of<dtype::uint64> { using type = std::uint64_t; };
template <> struct storage_of<dtype::boolean> { using type = bool; };
template <> struct storage_of<dtype::string> { using type = std::string; };

/// The C++ type that stores one element of `T`.
template <dtype T> using storage_t = typename storage_of<T>::type;

template <class T> inline constexpr dtype dtype_of = dtype::undefined;
template <> inline constexpr dtype dtype_of<float> = dtype::float32;
template <> inline constexpr dtype dtype_of<double> = dtype::float64;
template <> inline constexpr dtype dtype_of<float16_t> = dtype::float16;
template <> inline constexpr dtype dtype_of<bfloat16_t> = dtype::bfloat16;
template <> inline constexpr dtype dtype_of<std::int8_t> = dtype::int8;
template <> inline constexpr dtype dtype_of<std::int16_t> = dtype::int16;
template <> inline constexpr dtype dtype_of<std::int32_t> = dtype::int32;
template <> inline constexpr dtype dtype_of<std::int64_t> = dtype::int64;
template <> inline constexpr dtype dtype_of<std::uint8_t> = dtype::uint8;
template <> inline constexpr dtype dtype_of<std::uint16_t> = dtype::uint16;
template <> inline constexpr dtype dtype_of<std::uint32_t> = dtype::uint32;
template <> inline constexpr dtype dtype_of<std::uint64_t> = dtype::uint64;
template <> inline constexpr dtype dtype_of<bool> = dtype::boolean;

/// Calls `f(T{})` with the C++ storage type T of `t` when it has one (the
/// float, integer and bool types), else `otherwise()`; returns what it returns.
///   double at = visit_numeric(t.type(), [&](auto z) { return double(load(t.data<decltype(z)>()[i])); },
///                             [] { return 0.0; });
template <class F, class G> constexpr decltype(auto) visit_numeric(dtype t, F&& f, G&& otherwise) {
  switch (t) {
    case dtype::float32: return f(float{});
    case dtype::float64: return f(double{});
    case dtype::float16: return f(float16_t{});
    case dtype::bfloat16: return f(bfloat16_t{});
    case dtype::int8: return f(std::int8_t{});
    case dtype::int16: return f(std::int16_t{});
    case dtype::int32: return f(std::int32_t{});
    case dtype::int64: return f(std::int64_t{});
    case dtype::uint8: return f(std::uint8_t{});
    case dtype::uint16: return f(std::uint16_t{});
    case dtype::uint32: return f(std::uint32_t{});
    case dtype::uint64: return f(std::uint64_t{});
    case dtype::boolean: return f(bool{});
    default: return otherwise();
  }
}

/// Loads one element as T's arithmetic type (half types widen to float).
template <class T> constexpr auto load(T v) {
  if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>)
    return to_float(v);
  else
    return v;
}
template <class T, class U> constexpr T store(U v) {
  if constexpr (std::is_same_v<T, float16_t>) {
    return to_float16(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return to_bfloat16(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && std::is_floating_point_v<U>) {
    // A float outside T's range is undefined behaviour in a plain cast:
    // through int64 it wraps as NumPy's astype does (-1 -> 65535 for
    // uint16); NaN and magnitudes past 64 bits give 0.
    const double d = static_cast<double>(v);
    if (d > -9223372036854775808.0 && d < 9223372036854775808.0)
      return static_cast<T>(static_cast<std::int64_t>(d));
    if (std::is_unsigned_v<T> && d >= 0 && d < 18446744073709551616.0)
      return static_cast<T>(static_cast<std::uint64_t>(d));
    return T(0);
  } else {
    return static_cast<T>(v);
  }
}

}  // namespace onyx
