// kernel<ops::Cast, cpu>: y = x converted element by element, keyed by
// (from, to) over every numeric type, bool, float16, bfloat16 and string.
// Half types convert through float; the loop is split over the pool.
// A pair with a float8, float8e8m0, float4e2m1 or packed integer side is not
// compiled per pair: one codec path decodes blocks of x into double (and
// int64, for integer sources, so integer wrapping stays exact) and encodes
// them as y's type, both by a switch outside the element loop.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/core/float8.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/core/packed.hpp"
#include "onyx/ops/cast.hpp"

namespace onyx {

namespace kernels::cpu {

/// The shortest decimal text that reads back as `v` (integers exactly).
template <class A> std::string format_number(A v) {
  if constexpr (std::is_same_v<A, bool>) {
    return v ? "1" : "0";
  } else {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  }
}

/// `s` read as a number of arithmetic type A; unparsable text gives 0.
template <class A> A parse_number(const std::string& s) {
  if constexpr (std::is_floating_point_v<A>)
    return static_cast<A>(std::strtod(s.c_str(), nullptr));
  else if constexpr (std::is_same_v<A, bool>)
    return std::strtod(s.c_str(), nullptr) != 0;
  else if constexpr (std::is_signed_v<A>)
    return static_cast<A>(std::strtoll(s.c_str(), nullptr, 10));
  else
    return static_cast<A>(std::strtoull(s.c_str(), nullptr, 10));
}

template <class To, class From> To convert_element(const From& v) {
  if constexpr (std::is_same_v<To, From>)
    return v;
  else if constexpr (std::is_same_v<From, std::string>)
    return store<To>(parse_number<std::remove_cvref_t<decltype(widen(To{}))>>(v));
  else if constexpr (std::is_same_v<To, std::string>)
    return format_number(widen(v));
  else if constexpr (std::is_same_v<To, bool>)
    return widen(v) != 0;
  else
    return store<To>(widen(v));
}

template <class To, class From> void cast_elements(const tensor& x, tensor& y, const thread_pool* pool) {
  const From* xs = x.data<From>();
  To* ys = y.data<To>();
  parallel_for(pool, x.size(), elementwise_grain, [&](std::int64_t b, std::int64_t e) {
    const auto n = static_cast<std::size_t>(e - b);
    if constexpr (std::is_same_v<To, float> && (std::is_same_v<From, float16_t> || std::is_same_v<From, bfloat16_t>))
      onyx::widen(std::span<const From>(xs + b, n), std::span<float>(ys + b, n));
    else if constexpr (std::is_same_v<From, float> && (std::is_same_v<To, float16_t> || std::is_same_v<To, bfloat16_t>))
      onyx::narrow(std::span<const float>(xs + b, n), std::span<To>(ys + b, n));
    else
      for (std::int64_t i = b; i < e; ++i) ys[i] = convert_element<To>(xs[i]);
  });
}

struct cast_options {
  bool saturate = true;
  e8m0_rounding rounding = e8m0_rounding::up;
};

inline cast_options make_cast_options(std::int64_t saturate, const std::string& round_mode) {
  return {saturate != 0, round_mode == "down"      ? e8m0_rounding::down
                         : round_mode == "nearest" ? e8m0_rounding::nearest
                                                   : e8m0_rounding::up};
}

/// Elements [b, b + n) of `x` as doubles `f` and, for integer and bool
/// sources, exactly as int64s `k` (uint64 as its two's complement bits).
/// Returns whether the source is integral.
inline bool decode_block(const tensor& x, std::int64_t b, std::int64_t n, double* f, std::int64_t* k) {
  auto floats = [&](auto load_one) {
    for (std::int64_t i = 0; i < n; ++i) f[i] = load_one(b + i);
    return false;
  };
  auto ints = [&](auto load_one) {
    for (std::int64_t i = 0; i < n; ++i) {
      auto v = load_one(b + i);
      k[i] = static_cast<std::int64_t>(v);
      f[i] = static_cast<double>(v);
    }
    return true;
  };
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    const T* p = x.data<T>();
    if constexpr (std::is_integral_v<T>)
      return ints([p](std::int64_t i) { return p[i]; });
    else
      return floats([p](std::int64_t i) { return static_cast<double>(load(p[i])); });
  };
  const auto* bytes = static_cast<const std::uint8_t*>(x.raw());
  return visit_numeric(x.type(), typed, [&] {
    switch (x.type()) {
      case dtype::float8e4m3fn:
      case dtype::float8e4m3fnuz:
      case dtype::float8e5m2:
      case dtype::float8e5m2fnuz:
      case dtype::float8e8m0: {
        float wide[256];
        for (std::int64_t s = 0; s < n; s += 256) {
          const auto m = static_cast<std::size_t>(std::min<std::int64_t>(256, n - s));
          onyx::widen(std::span<const std::uint8_t>(bytes + b + s, m), x.type(), std::span<float>(wide, m));
          for (std::size_t i = 0; i < m; ++i) f[s + static_cast<std::int64_t>(i)] = wide[i];
        }
        return false;
      }
      case dtype::float4e2m1:
        return floats([&](std::int64_t i) { return static_cast<double>(float4e2m1_to_float(packed_get(bytes, 4, i))); });
      case dtype::int4: return ints([&](std::int64_t i) { return sign_extend(packed_get(bytes, 4, i), 4); });
      case dtype::uint4: return ints([&](std::int64_t i) { return packed_get(bytes, 4, i); });
      case dtype::int2: return ints([&](std::int64_t i) { return sign_extend(packed_get(bytes, 2, i), 2); });
      case dtype::uint2: return ints([&](std::int64_t i) { return packed_get(bytes, 2, i); });
      default: return false;
    }
  });
}

/// Every element of `t` as a double (small tensors: scales, grids).
inline std::vector<double> decode_all(const tensor& t) {
  std::vector<double> f(static_cast<std::size_t>(t.size()));
  std::vector<std::int64_t> k(f.size());
  if (!f.empty()) decode_block(t, 0, t.size(), f.data(), k.data());
  return f;
}

/// A float truncated toward zero as int64 bits (NaN gives 0, out-of-range
/// values saturate: the spec leaves both undefined; this avoids C++'s UB).
inline std::int64_t truncate_to_int(double v) {
  if (!(v == v)) return 0;
  if (v >= 9.2233720368547758e18) return std::numeric_limits<std::int64_t>::max();
  if (v <= -9.2233720368547758e18) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v);
}

/// Writes elements [b, b + n) of `y` from the decoded values.
inline void encode_block(tensor& y, std::int64_t b, std::int64_t n, const double* f, const std::int64_t* k,
                         bool integral, const cast_options& o) {
  auto as_int = [&](std::int64_t i) { return integral ? k[i] : truncate_to_int(f[i]); };
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    T* p = y.data<T>() + b;
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, bool>)
        p[i] = integral ? k[i] != 0 : f[i] != 0;
      else if constexpr (std::is_integral_v<T>)
        p[i] = static_cast<T>(as_int(i));
      else
        p[i] = store<T>(f[i]);
    }
  };
  auto* bytes = static_cast<std::uint8_t*>(y.raw());
  auto packed_int = [&](int width) {  // floats round to nearest even first, then wrap
    for (std::int64_t i = 0; i < n; ++i)
      packed_set(bytes, width, b + i,
                 static_cast<std::uint8_t>(integral ? k[i] : truncate_to_int(std::nearbyint(f[i]))));
  };
  visit_numeric(y.type(), typed, [&] {
    switch (y.type()) {
      case dtype::float8e4m3fn:
      case dtype::float8e4m3fnuz:
      case dtype::float8e5m2:
      case dtype::float8e5m2fnuz:
        for (std::int64_t i = 0; i < n; ++i) bytes[b + i] = float_to_float8(static_cast<float>(f[i]), y.type(), o.saturate);
        return;
      case dtype::float8e8m0:
        for (std::int64_t i = 0; i < n; ++i)
          bytes[b + i] = float_to_float8e8m0(static_cast<float>(f[i]), o.saturate, o.rounding);
        return;
      case dtype::float4e2m1:
        for (std::int64_t i = 0; i < n; ++i) packed_set(bytes, 4, b + i, float_to_float4e2m1(static_cast<float>(f[i])));
        return;
      case dtype::int4:
      case dtype::uint4: return packed_int(4);
      case dtype::int2:
      case dtype::uint2: return packed_int(2);
      default: return;
    }
  });
}

/// y = x converted through the codecs; either side may be any castable type
/// but string.
inline status cast_through_codecs(const tensor& x, tensor& y, const cast_options& o, const thread_pool* pool) {
  if (x.type() == dtype::string || y.type() == dtype::string)
    return status(errc::unsupported, "cast between string and " +
                                         std::string(name(x.type() == dtype::string ? y.type() : x.type())) +
                                         " is not supported");
  if (storage_bytes(y.type(), y.size()) > 0) std::memset(y.raw(), 0, y.bytes());  // zero the padding bits
  constexpr std::int64_t block = 256;  // a multiple of every packing, so blocks own whole bytes
  std::int64_t blocks = (x.size() + block - 1) / block;
  // A block: 256 elements, about 4 units each (decode to double, encode).
  parallel_for(pool, blocks, grain_for(4 * block), [&](std::int64_t first, std::int64_t last) {
    double f[block];
    std::int64_t k[block];
    for (std::int64_t blk = first; blk < last; ++blk) {
      std::int64_t b = blk * block, n = std::min(block, x.size() - b);
      bool integral = decode_block(x, b, n, f, k);
      encode_block(y, b, n, f, k, integral, o);
    }
  });
  return ok();
}

/// Cast's kernel body for signature (from, to).
template <ops::signature S> status cast_run(const kernel_call& c, const cast_options& o) {
  if constexpr (ops::codec_types.contains(S[0]) || ops::codec_types.contains(S[1])) {
    return cast_through_codecs(c.input(0), c.output(0), o, c.pool());
  } else {
    cast_elements<stored_t<S[1]>, stored_t<S[0]>>(c.input(0), c.output(0), c.pool());
    return ok();
  }
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Cast, cpu> {
  static constexpr std::array types{ops::Cast::T1, ops::Cast::T2};
  template <ops::signature S> static status run(const call<ops::Cast>& c) {
    using namespace kernels::cpu;
    return cast_run<S>(c, make_cast_options(c.attrs().saturate, c.attrs().round_mode));
  }
};

}  // namespace onyx
