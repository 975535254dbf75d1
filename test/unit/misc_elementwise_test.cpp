// Shrink and Swish against scalar references; bad types.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/shrink.hpp"
#include "kernels/cpu/swish.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("Shrink: hard and soft, float and int", "[misc]") {
  auto x = test::random_values<float>(3 * 37, -2, 2, 21);
  for (float bias : {0.0f, 1.5f}) {
    std::vector<float> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = x[i] < -1.5f ? x[i] + bias : x[i] > 1.5f ? x[i] - bias : 0.0f;
    auto r = test::run_op<ops::Shrink>({tensor::from(x, {3, 37})}, {test::attr("lambd", 1.5f), test::attr("bias", bias)});
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 0, 0);
  }
  std::vector<std::int32_t> xi{-5, -2, -1, 0, 1, 2, 7};
  auto r = test::run_op<ops::Shrink>({tensor::from(xi, {7})}, {test::attr("lambd", 1.0f), test::attr("bias", 1.0f)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int32_t>{-4, -1, 0, 0, 0, 1, 6}, 0, 0);
}

TEST_CASE("Swish: x * sigmoid(alpha x)", "[misc]") {
  auto x = test::random_values<double>(1001, -8, 8, 22);
  for (float alpha : {1.0f, 0.5f}) {
    std::vector<double> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = x[i] / (1 + std::exp(-double(alpha) * x[i]));
    thread_pool pool(2);
    auto r = test::run_op<ops::Swish>({tensor::from(x, {1001})}, {test::attr("alpha", alpha)}, 1, &pool);
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 1e-12, 1e-12);
  }
  auto bad = test::run_op<ops::Swish>({tensor::from(std::vector<std::int32_t>{1}, {1})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("type constraint T") != std::string::npos);
}
