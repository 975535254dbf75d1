// com.microsoft MatMulIntegerToFloat against the contrib spec's formula in
// double: (A - a_zero_point) @ (B - b_zero_point) * (a_scale * b_scale) + bias,
// uint8 and int8 weights with per-column scales and zero points, batches;
// a per-column a_scale is refused with a message.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/dynamic_quantize_gemm.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
template <class W> void check(bool with_bias) {
  const int B = 2, M = 3, K = 37, N = 5;
  auto a = test::random_values<std::uint8_t>(B * M * K, 0, 255, 11);
  auto b = test::random_values<W>(K * N, std::is_signed_v<W> ? -128 : 0, std::is_signed_v<W> ? 127 : 255, 12);
  std::vector<float> b_scale{0.01f, 0.02f, 0.005f, 0.1f, 0.03f}, bias{1, -2, 0.5f, 0, 3};
  std::vector<W> zb{W(1), W(0), W(5), W(100), W(7)};
  const float a_scale = 0.04f;
  const std::uint8_t za = 120;
  std::vector<float> want(B * M * N);
  for (int p = 0; p < B * M; ++p)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += double(a[p * K + k] - za) * double(b[k * N + j] - zb[j]);
      want[p * N + j] = float(s * a_scale * b_scale[j] + (with_bias ? bias[j] : 0.0));
    }
  std::vector<tensor> in{tensor::from(a, {B, M, K}), tensor::from(b, {K, N}), tensor::scalar(a_scale),
                         tensor::from(b_scale, {N}), tensor::scalar(za), tensor::from(zb, {N})};
  if (with_bias) in.push_back(tensor::from(bias, {N}));
  thread_pool pool(2);
  auto r = test::run_op<ops::MatMulIntegerToFloat>(in, {}, 1, &pool);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{B, M, N});
  test::require_close((*r)[0], want, 1e-5, 1e-5);
}
}  // namespace

TEST_CASE("MatMulIntegerToFloat matches the dequantized product", "[misc]") {
  check<std::int8_t>(true);
  check<std::uint8_t>(false);
}

TEST_CASE("MatMulIntegerToFloat refuses a per-column a_scale", "[misc]") {
  auto r = test::run_op<ops::MatMulIntegerToFloat>(
      {tensor::from(std::vector<std::uint8_t>(6, 1), {2, 3}), tensor::from(std::vector<std::int8_t>(12, 1), {3, 4}),
       tensor::from(std::vector<float>{1, 2, 3}, {3}), tensor::scalar(1.0f)});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("a_scale") != std::string::npos);
}
