// QuantizeLinear / DequantizeLinear: per-tensor int8 (ties to even,
// saturation), per-axis uint8, blocked int4 (packed), float8, against scalar
// formulas; DynamicQuantizeLinear; bad scale shapes and zero-point types.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/dynamic_quantize_linear.hpp"
#include "kernels/cpu/quantize.hpp"
#include "onyx/core/packed.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("QuantizeLinear per tensor rounds ties to even and saturates", "[misc]") {
  std::vector<float> x{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300, -300, 1.01f, 7};
  auto r = test::run_op<ops::QuantizeLinear>(
      {tensor::from(x, {9}), tensor::scalar(0.5f), tensor::scalar<std::int8_t>(1)});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::int8);
  std::vector<std::int8_t> want;
  for (float v : x) want.push_back(std::int8_t(std::clamp(std::nearbyint(v / 0.5) + 1, -128.0, 127.0)));
  test::require_close((*r)[0], want, 0, 0);
  auto u = test::run_op<ops::QuantizeLinear>({tensor::from(x, {9}), tensor::scalar(0.5f)});  // uint8 by default
  REQUIRE(u.ok());
  CHECK((*u)[0].type() == dtype::uint8);
  CHECK((*u)[0].values<std::uint8_t>()[6] == 0);
}

TEST_CASE("Quantize/DequantizeLinear per axis", "[misc]") {
  auto x = test::random_values<float>(2 * 3 * 5, -4, 4, 81);
  std::vector<float> scale{0.05f, 0.1f, 0.2f};
  std::vector<std::uint8_t> zero{128, 100, 10};
  thread_pool pool(2);
  auto r = test::run_op<ops::QuantizeLinear>({tensor::from(x, {2, 3, 5}), tensor::from(scale, {3}), tensor::from(zero, {3})},
                                             {test::attr("axis", 1)}, 1, &pool);
  REQUIRE(r.ok());
  std::vector<std::uint8_t> want(x.size());
  std::vector<float> back(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    int ch = (j / 5) % 3;
    want[j] = std::uint8_t(std::clamp(std::nearbyint(double(x[j] / scale[ch])) + zero[ch], 0.0, 255.0));
    back[j] = float((int(want[j]) - zero[ch]) * double(scale[ch]));
  }
  test::require_close((*r)[0], want, 0, 0);
  auto d = test::run_op<ops::DequantizeLinear>({(*r)[0], tensor::from(scale, {3}), tensor::from(zero, {3})},
                                               {test::attr("axis", -2)}, 1, &pool);
  REQUIRE(d.ok());
  test::require_close((*d)[0], back, 0, 0);
}

TEST_CASE("Quantize/DequantizeLinear blocked to packed int4", "[misc]") {
  // x [2, 5], blocks of 2 along axis 1 -> scale [2, 3]
  std::vector<float> x{-1, -0.5f, 0, 0.5f, 1, 8, -8, 2, 3, 100};
  std::vector<float> scale{0.25f, 0.5f, 1, 1, 2, 4};
  auto r = test::run_op<ops::QuantizeLinear>(
      {tensor::from(x, {2, 5}), tensor::from(scale, {2, 3})},
      {test::attr("axis", 1), test::attr("block_size", 2), test::attr("output_dtype", int(dtype::int4))});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::int4);
  const auto* bytes = static_cast<const std::uint8_t*>((*r)[0].raw());
  std::vector<float> back;
  for (int j = 0; j < 10; ++j) {
    double s = scale[(j / 5) * 3 + (j % 5) / 2];
    int want = int(std::clamp(std::nearbyint(x[j] / s), -8.0, 7.0));
    CHECK(sign_extend(packed_get(bytes, 4, j), 4) == want);
    back.push_back(float(want * s));
  }
  auto d = test::run_op<ops::DequantizeLinear>({(*r)[0], tensor::from(scale, {2, 3})},
                                               {test::attr("axis", 1), test::attr("block_size", 2)});
  REQUIRE(d.ok());
  test::require_close((*d)[0], back, 0, 0);
}

TEST_CASE("QuantizeLinear to float8 converts x / scale", "[misc]") {
  auto x = test::random_values<float>(37, -1000, 1000, 82);
  auto r = test::run_op<ops::QuantizeLinear>(
      {tensor::from(x, {37}), tensor::scalar(2.0f)}, {test::attr("output_dtype", int(dtype::float8e4m3fn))});
  REQUIRE(r.ok());
  const auto* b = static_cast<const std::uint8_t*>((*r)[0].raw());
  for (std::size_t j = 0; j < x.size(); ++j) CHECK(b[j] == float_to_float8(x[j] / 2, dtype::float8e4m3fn));
}

TEST_CASE("Quantize/DequantizeLinear reject bad scale shapes and zero-point types", "[misc]") {
  auto x = tensor::from(std::vector<float>(6, 1), {2, 3});
  auto r = test::run_op<ops::QuantizeLinear>({x, tensor::from(std::vector<float>{1, 1}, {2})});  // axis 1 has 3
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("per-axis") != std::string::npos);
  auto b = test::run_op<ops::QuantizeLinear>({x, tensor::from(std::vector<float>{1, 1}, {2, 1})},
                                             {test::attr("block_size", 2)});  // needs [2, 2]
  REQUIRE(!b.ok());
  CHECK(b.error().message().find("expected 2") != std::string::npos);
  auto z = test::run_op<ops::DequantizeLinear>({tensor::from(std::vector<std::int8_t>{1}, {1}), tensor::scalar(1.0f),
                                                tensor::scalar<std::uint8_t>(0)});
  REQUIRE(!z.ok());
  CHECK(z.error().message().find("x_zero_point") != std::string::npos);
}

TEST_CASE("DynamicQuantizeLinear derives scale and zero point from the range", "[misc]") {
  for (auto [lo, hi] : {std::pair{-3.0f, 5.0f}, std::pair{0.5f, 2.0f}, std::pair{-4.0f, -1.0f}}) {
    auto x = test::random_values<float>(1001, lo, hi, 83);
    float mn = 0, mx = 0;
    for (float v : x) mn = std::min(mn, v), mx = std::max(mx, v);
    float scale = (mx - mn) / 255.0f;
    float zero = std::nearbyint(std::clamp(-mn / scale, 0.0f, 255.0f));
    std::vector<std::uint8_t> want;
    for (float v : x) want.push_back(std::uint8_t(std::clamp(std::nearbyint(v / scale) + zero, 0.0f, 255.0f)));
    thread_pool pool(2);
    auto r = test::run_op<ops::DynamicQuantizeLinear>({tensor::from(x, {7, 143})}, {}, 3, &pool);
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 0, 0);
    CHECK((*r)[1].values<float>()[0] == scale);
    CHECK((*r)[2].values<std::uint8_t>()[0] == zero);
  }
  auto bad = test::run_op<ops::DynamicQuantizeLinear>({tensor::from(std::vector<double>{1}, {1})}, {}, 3);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("T1") != std::string::npos);
}
