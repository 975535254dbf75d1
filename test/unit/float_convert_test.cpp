// The span widen/narrow pair (core/float_convert.hpp) against the scalar
// codecs it must match bit for bit: every float16, bfloat16 and float8 value
// widened; narrowed, every rounding midpoint of float16 and bfloat16 with its
// neighbours plus a strided sweep over all float bit patterns; the tensor
// forms with float and double sides over odd sizes past the 256-element block.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "onyx/core/float_convert.hpp"

using namespace onyx;

namespace {

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

/// Float bit patterns that stress rounding into float16 and bfloat16: each
/// value of the narrow type, the midpoints to its successor and their float
/// neighbours, and every 65521st pattern of the 2^32.
std::vector<float> rounding_cases() {
  std::vector<float> v;
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const float lo = to_float(float16_t{static_cast<std::uint16_t>(h)});
    const float hi = to_float(float16_t{static_cast<std::uint16_t>(h + 1)});
    const float mid = lo / 2 + hi / 2;  // exact: float16 has 13 fewer mantissa bits
    for (float f : {lo, mid, std::nextafter(mid, -INFINITY), std::nextafter(mid, INFINITY)}) v.push_back(f);
    for (std::uint32_t low : {0x0u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      v.push_back(std::bit_cast<float>(h << 16 | low));
  }
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 65521)
    v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u)));
  return v;
}

}  // namespace

TEST_CASE("widen float16 and bfloat16: every value, bit for bit", "[float_convert]") {
  std::vector<float16_t> h(0x10000);
  std::vector<bfloat16_t> b(0x10000);
  for (std::uint32_t i = 0; i < 0x10000u; ++i) h[i].bits = b[i].bits = static_cast<std::uint16_t>(i);
  std::vector<float> out(0x10000);
  widen(std::span<const float16_t>(h), std::span<float>(out));
  for (std::uint32_t i = 0; i < 0x10000u; ++i) REQUIRE(bits(out[i]) == bits(to_float(h[i])));
  widen(std::span<const bfloat16_t>(b), std::span<float>(out));
  for (std::uint32_t i = 0; i < 0x10000u; ++i) REQUIRE(bits(out[i]) == bits(to_float(b[i])));
}

TEST_CASE("narrow to float16 and bfloat16: midpoints and a sweep, bit for bit", "[float_convert]") {
  const std::vector<float> x = rounding_cases();
  std::vector<float16_t> h(x.size());
  std::vector<bfloat16_t> b(x.size());
  narrow(std::span<const float>(x), std::span<float16_t>(h));
  narrow(std::span<const float>(x), std::span<bfloat16_t>(b));
  std::size_t h_wrong = 0, b_wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    h_wrong += h[i].bits != to_float16(x[i]).bits;
    b_wrong += b[i].bits != to_bfloat16(x[i]).bits;
  }
  CHECK(h_wrong == 0);
  CHECK(b_wrong == 0);
}

TEST_CASE("float8 widen and narrow match the scalar codecs", "[float_convert]") {
  std::vector<std::uint8_t> all(256);
  for (unsigned i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
  const std::vector<float> x = rounding_cases();
  std::vector<float> out(256);
  std::vector<std::uint8_t> bytes(x.size());
  for (dtype t : {dtype::float8e4m3fn, dtype::float8e4m3fnuz, dtype::float8e5m2, dtype::float8e5m2fnuz}) {
    INFO(name(t));
    widen(std::span<const std::uint8_t>(all), t, std::span<float>(out));
    for (unsigned i = 0; i < 256; ++i) REQUIRE(bits(out[i]) == bits(float8_to_float(all[i], t)));
    for (bool saturate : {true, false}) {
      narrow(std::span<const float>(x), std::span<std::uint8_t>(bytes), t, saturate);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < x.size(); ++i) wrong += bytes[i] != float_to_float8(x[i], t, saturate);
      CHECK(wrong == 0);
    }
  }
  widen(std::span<const std::uint8_t>(all), dtype::float8e8m0, std::span<float>(out));
  for (unsigned i = 0; i < 256; ++i) REQUIRE(bits(out[i]) == bits(float8e8m0_to_float(all[i])));
  narrow(std::span<const float>(x), std::span<std::uint8_t>(bytes), dtype::float8e8m0, true, e8m0_rounding::nearest);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    wrong += bytes[i] != float_to_float8e8m0(x[i], true, e8m0_rounding::nearest);
  CHECK(wrong == 0);
}

TEST_CASE("tensor widen/narrow: every float type, float and double sides", "[float_convert]") {
  const std::int64_t n = 1001;  // several 256-element blocks and a tail
  std::vector<double> src(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = (static_cast<double>(i) - 500.25) / 7.0;
  for (dtype t :
       {dtype::float32, dtype::float64, dtype::float16, dtype::bfloat16, dtype::float8e4m3fn, dtype::float8e5m2}) {
    INFO(name(t));
    tensor y = tensor::zeros(t, {n});
    narrow(std::span<const double>(src), y);
    std::vector<double> back(static_cast<std::size_t>(n));
    widen(y, std::span<double>(back));
    std::vector<float> srcf(src.begin(), src.end()), backf(static_cast<std::size_t>(n));
    tensor z = tensor::zeros(t, {n});
    narrow(std::span<const float>(srcf), z);
    widen(z, std::span<float>(backf));
    for (std::int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      // The reference: round through float to the type, widen exactly.
      const float f = static_cast<float>(src[k]);
      double expected = 0;
      switch (t) {
        case dtype::float32:
          expected = f;
          break;
        case dtype::float64:
          expected = src[k];
          break;
        case dtype::float16:
          expected = to_float(to_float16(f));
          break;
        case dtype::bfloat16:
          expected = to_float(to_bfloat16(f));
          break;
        default:
          expected = float8_to_float(float_to_float8(f, t), t);
          break;
      }
      REQUIRE(back[k] == expected);
      REQUIRE(backf[k] == static_cast<float>(t == dtype::float64 ? static_cast<double>(f) : expected));
    }
  }
}
