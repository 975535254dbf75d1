// The float8 / float8e8m0 / float4e2m1 codecs (core/float8.hpp) over every
// byte value against a reference decoder written from the format tables,
// rounding at every midpoint, the saturate rules; packed int4/int2 access;
// Cast and CastLike through them.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "kernels/cpu/cast.hpp"
#include "kernels/cpu/cast_like.hpp"
#include "onyx/core/float8.hpp"
#include "onyx/core/packed.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {

struct format_case {
  dtype type;
  int e_bits, m_bits, bias;
  double max;
};
constexpr format_case formats[] = {{dtype::float8e4m3fn, 4, 3, 7, 448},
                                   {dtype::float8e4m3fnuz, 4, 3, 8, 240},
                                   {dtype::float8e5m2, 5, 2, 15, 57344},
                                   {dtype::float8e5m2fnuz, 5, 2, 16, 57344}};

/// Reference decode: NaN per the format tables, else sign * value by ldexp.
double reference_value(const format_case& f, unsigned b) {
  bool fnuz = f.type == dtype::float8e4m3fnuz || f.type == dtype::float8e5m2fnuz;
  double nan = std::numeric_limits<double>::quiet_NaN();
  if (fnuz && b == 0x80) return nan;
  unsigned e = (b >> f.m_bits) & ((1u << f.e_bits) - 1), m = b & ((1u << f.m_bits) - 1);
  if (f.type == dtype::float8e4m3fn && (b & 0x7f) == 0x7f) return nan;
  if (f.type == dtype::float8e5m2 && e == 31) return m ? nan : (b & 0x80 ? -INFINITY : INFINITY);
  double v = e == 0 ? std::ldexp(m, 1 - f.bias - f.m_bits) : std::ldexp((1 << f.m_bits) + m, int(e) - f.bias - f.m_bits);
  return b & 0x80 ? -v : v;
}

}  // namespace

TEST_CASE("float8 decoding matches the format tables for all 256 values", "[float8]") {
  for (const auto& f : formats) {
    double largest = 0;
    for (unsigned b = 0; b < 256; ++b) {
      INFO(name(f.type) << " byte " << b);
      double want = reference_value(f, b);
      float got = float8_to_float(static_cast<std::uint8_t>(b), f.type);
      if (std::isnan(want)) {
        CHECK(std::isnan(got));
        continue;
      }
      CHECK(double(got) == want);
      if (std::isfinite(want)) largest = std::max(largest, want);
    }
    CHECK(largest == f.max);
  }
}

TEST_CASE("float8 encoding round-trips every value and rounds midpoints to even", "[float8]") {
  for (const auto& f : formats) {
    bool fnuz = f.type == dtype::float8e4m3fnuz || f.type == dtype::float8e5m2fnuz;
    for (unsigned b = 0; b < 256; ++b) {
      INFO(name(f.type) << " byte " << b);
      float v = float8_to_float(static_cast<std::uint8_t>(b), f.type);
      if (std::isnan(v)) {
        CHECK(std::isnan(float8_to_float(float_to_float8(v, f.type), f.type)));
        continue;
      }
      if (std::isinf(v)) continue;
      CHECK(float_to_float8(v, f.type) == b);
      // Between this value and the next larger magnitude (same sign).
      unsigned next = b + 1;
      if ((next & 0x7f) == 0 || (b & 0x7f) >= (fnuz ? 0x7fu : f.type == dtype::float8e5m2 ? 0x7bu : 0x7eu)) continue;
      float w = float8_to_float(static_cast<std::uint8_t>(next), f.type);
      float mid = (v + w) / 2;  // exact in float: both have at most 4 significant bits
      unsigned even = (b & 1) ? next : b;
      if (!(fnuz && even == 0x80)) CHECK(float_to_float8(mid, f.type) == even);
      CHECK(float_to_float8(std::nextafter(mid, w), f.type) == next);
      CHECK(float_to_float8(std::nextafter(mid, v), f.type) == b);
    }
  }
}

TEST_CASE("float8 out-of-range, infinity, NaN and zero follow the saturate tables", "[float8]") {
  const float inf = INFINITY, nan = NAN;
  // saturate = true: +-Inf and overflow go to +-max.
  CHECK(float_to_float8(inf, dtype::float8e4m3fn) == 0x7e);
  CHECK(float_to_float8(-1e6f, dtype::float8e4m3fn) == 0xfe);
  CHECK(float_to_float8(inf, dtype::float8e5m2) == 0x7b);
  CHECK(float_to_float8(-inf, dtype::float8e4m3fnuz) == 0xff);
  CHECK(float_to_float8(464.f, dtype::float8e4m3fn) == 0x7e);  // rounds to 448 (even)
  // saturate = false.
  CHECK(float_to_float8(inf, dtype::float8e4m3fn, false) == 0x7f);
  CHECK(float_to_float8(-inf, dtype::float8e4m3fn, false) == 0xff);
  CHECK(float_to_float8(480.f, dtype::float8e4m3fn, false) == 0x7f);
  CHECK(float_to_float8(inf, dtype::float8e5m2, false) == 0x7c);
  CHECK(float_to_float8(-1e6f, dtype::float8e5m2, false) == 0xfc);
  CHECK(float_to_float8(inf, dtype::float8e5m2fnuz, false) == 0x80);
  // NaN, -0 and underflow.
  CHECK(float_to_float8(nan, dtype::float8e4m3fn) == 0x7f);
  CHECK(float_to_float8(nan, dtype::float8e5m2) == 0x7e);
  CHECK(float_to_float8(nan, dtype::float8e5m2fnuz) == 0x80);
  CHECK(float_to_float8(-0.0f, dtype::float8e4m3fn) == 0x80);
  CHECK(float_to_float8(-0.0f, dtype::float8e4m3fnuz) == 0x00);
  CHECK(float_to_float8(-1e-7f, dtype::float8e5m2) == 0x80);
  CHECK(float_to_float8(1e-30f, dtype::float8e4m3fn) == 0x00);
}

TEST_CASE("float4e2m1 over all 16 nibbles, its midpoints and saturation", "[float8]") {
  const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (unsigned b = 0; b < 16; ++b) {
    float want = b & 8 ? -values[b & 7] : values[b & 7];
    CHECK(float4e2m1_to_float(static_cast<std::uint8_t>(b)) == want);
    CHECK(float_to_float4e2m1(want) == b);
  }
  CHECK(float_to_float4e2m1(0.25f) == 0x0);   // tie -> even (0)
  CHECK(float_to_float4e2m1(0.75f) == 0x2);   // tie between 0.5 and 1 -> 1
  CHECK(float_to_float4e2m1(-3.5f) == 0xe);   // tie between 3 and 4 -> 4
  CHECK(float_to_float4e2m1(5.0f) == 0x6);    // tie between 4 and 6 -> 4
  CHECK(float_to_float4e2m1(5.01f) == 0x7);
  CHECK(float_to_float4e2m1(1e6f) == 0x7);
  CHECK(float_to_float4e2m1(-INFINITY) == 0xf);
  CHECK(float_to_float4e2m1(NAN) == 0x8);
}

TEST_CASE("float8e8m0 over all 256 values and its rounding modes", "[float8]") {
  for (unsigned b = 0; b < 255; ++b) {
    float v = float8e8m0_to_float(static_cast<std::uint8_t>(b));
    CHECK(double(v) == std::ldexp(1.0, int(b) - 127));
    for (auto mode : {e8m0_rounding::up, e8m0_rounding::down, e8m0_rounding::nearest}) {
      // 2^-127 is a float subnormal whose field is 0 with a non-zero
      // mantissa: rounding up (as the reference does) gives 2^-126.
      unsigned want = b == 0 && mode == e8m0_rounding::up ? 1 : b;
      CHECK(float_to_float8e8m0(v, true, mode) == want);
    }
  }
  CHECK(std::isnan(float8e8m0_to_float(0xff)));
  CHECK(float_to_float8e8m0(1.1f) == 128);                               // up
  CHECK(float_to_float8e8m0(1.9f, true, e8m0_rounding::down) == 127);   // down
  CHECK(float_to_float8e8m0(1.4f, true, e8m0_rounding::nearest) == 127);
  CHECK(float_to_float8e8m0(1.6f, true, e8m0_rounding::nearest) == 128);
  CHECK(float_to_float8e8m0(3e38f, true) == 254);   // saturates below NaN
  CHECK(float_to_float8e8m0(3e38f, false) == 255);
  CHECK(float_to_float8e8m0(INFINITY) == 255);
}

TEST_CASE("packed sub-byte elements sit low bits first", "[float8]") {
  std::uint8_t bytes[2] = {};
  for (int i = 0; i < 4; ++i) packed_set(bytes, 4, i, static_cast<std::uint8_t>(0xa + i));
  CHECK(bytes[0] == 0xba);
  CHECK(bytes[1] == 0xdc);
  CHECK(packed_get(bytes, 2, 1) == 0x2);  // 0xba = 10 11 10 10
  for (unsigned v = 0; v < 16; ++v) CHECK(sign_extend(static_cast<std::uint8_t>(v), 4) == (v < 8 ? int(v) : int(v) - 16));
  for (unsigned v = 0; v < 4; ++v) CHECK(sign_extend(static_cast<std::uint8_t>(v), 2) == (v < 2 ? int(v) : int(v) - 4));
}

TEST_CASE("Cast to and from int4/uint2 packs, rounds to even and wraps", "[float8]") {
  std::vector<float> x{-9, -8, -1, 0, 2.5f, 3.5f, 7, 15, -0.5f};  // odd count: a padded last nibble
  auto r = test::run_op<ops::Cast>({tensor::from(x, {9})}, {test::attr("to", int(dtype::int4))});
  REQUIRE(r.ok());
  const auto* bytes = static_cast<const std::uint8_t*>((*r)[0].raw());
  REQUIRE((*r)[0].bytes() == 5);
  const int want[9] = {7, -8, -1, 0, 2, 4, 7, -1, 0};
  for (int i = 0; i < 9; ++i) CHECK(sign_extend(packed_get(bytes, 4, i), 4) == want[i]);
  CHECK((bytes[4] >> 4) == 0);
  auto back = test::run_op<ops::Cast>({(*r)[0]}, {test::attr("to", int(dtype::int32))});
  REQUIRE(back.ok());
  test::require_close((*back)[0], std::vector<std::int32_t>(want, want + 9), 0, 0);

  auto u2 = test::run_op<ops::Cast>({tensor::from(std::vector<std::int64_t>{-3, -2, -1, 0, 1, 2, 3}, {7})},
                                    {test::attr("to", int(dtype::uint2))});
  REQUIRE(u2.ok());
  const auto* ub = static_cast<const std::uint8_t*>((*u2)[0].raw());
  CHECK(ub[0] == 0x39);
  CHECK(ub[1] == 0x39);
}

TEST_CASE("Cast float <-> float8 over a large tensor matches the scalar codecs", "[float8]") {
  auto x = test::random_values<float>(3001, -600, 600, 11);
  thread_pool pool(2);
  for (dtype t : {dtype::float8e4m3fn, dtype::float8e5m2fnuz}) {
    for (int saturate : {0, 1}) {
      auto r = test::run_op<ops::Cast>({tensor::from(x, {3001})},
                                       {test::attr("to", int(t)), test::attr("saturate", saturate)}, 1, &pool);
      REQUIRE(r.ok());
      const auto* b = static_cast<const std::uint8_t*>((*r)[0].raw());
      for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(b[i] == float_to_float8(x[i], t, saturate != 0));
      auto like = test::run_op<ops::CastLike>({(*r)[0], tensor::from(std::vector<double>{0}, {1})});
      REQUIRE(like.ok());
      for (std::size_t i = 0; i < x.size(); ++i) {
        double want = float8_to_float(b[i], t);
        double got = (*like)[0].values<double>()[i];
        REQUIRE((got == want || (std::isnan(got) && std::isnan(want))));
      }
    }
  }
}

TEST_CASE("Cast rejects string <-> float8 and a bad round_mode", "[float8]") {
  auto s = tensor::from(std::vector<std::string>{"1"}, {1});
  auto r = test::run_op<ops::Cast>({s}, {test::attr("to", int(dtype::float8e5m2))});
  REQUIRE(!r.ok());
  CHECK(r.error().code() == errc::unsupported);
  auto m = test::run_op<ops::Cast>({tensor::from(std::vector<float>{1}, {1})},
                                   {test::attr("to", int(dtype::float8e8m0)), test::attr("round_mode", std::string("odd"))});
  REQUIRE(!m.ok());
  CHECK(m.error().message().find("round_mode") != std::string::npos);
}
