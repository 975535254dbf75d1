// MatMulInteger and QLinearMatMul against plain loops: per-tensor and
// per-row/column zero points and scales, broadcast batches; bad zero points.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/mat_mul_integer.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("MatMulInteger with per-row / per-column zero points and batches", "[misc]") {
  const int B = 3, M = 4, K = 9, N = 5;
  auto a = test::random_values<std::uint8_t>(B * M * K, 0, 255, 91);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 92);
  std::vector<std::uint8_t> za{3, 200, 0, 128};
  std::vector<std::int8_t> zb{-1, 0, 5, 127, -128};
  std::vector<std::int32_t> want(B * M * N);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        std::int32_t s = 0;
        for (int k = 0; k < K; ++k) s += (a[(p * M + i) * K + k] - za[i]) * (b[k * N + j] - zb[j]);
        want[(p * M + i) * N + j] = s;
      }
  thread_pool pool(2);
  auto r = test::run_op<ops::MatMulInteger>(
      {tensor::from(a, {B, M, K}), tensor::from(b, {K, N}), tensor::from(za, {M}), tensor::from(zb, {N})}, {}, 1, &pool);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{B, M, N});
  test::require_close((*r)[0], want, 0, 0);
  auto bad = test::run_op<ops::MatMulInteger>(
      {tensor::from(a, {B, M, K}), tensor::from(b, {K, N}), tensor::from(std::vector<std::uint8_t>{1, 2}, {2})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("a_zero_point") != std::string::npos);
}

TEST_CASE("QLinearMatMul requantizes with rounding and saturation", "[misc]") {
  const int M = 3, K = 7, N = 4;
  auto a = test::random_values<std::int8_t>(M * K, -128, 127, 93);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 94);
  float sa = 0.02f, sb = 0.03f, sy = 0.5f;
  std::int8_t za = 2, zb = -3, zy = 1;
  std::vector<std::int8_t> want(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      std::int64_t s = 0;
      for (int k = 0; k < K; ++k) s += (a[i * K + k] - za) * (b[k * N + j] - zb);
      double f = float(float(sa * sb) / sy);
      want[i * N + j] = std::int8_t(std::clamp(std::nearbyint(double(s) * f + zy), -128.0, 127.0));
    }
  auto r = test::run_op<ops::QLinearMatMul>({tensor::from(a, {M, K}), tensor::scalar(sa), tensor::scalar(za),
                                             tensor::from(b, {K, N}), tensor::scalar(sb), tensor::scalar(zb),
                                             tensor::scalar(sy), tensor::scalar(zy)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], want, 0, 0);
}
