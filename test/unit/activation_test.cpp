// Activations against scalar references: odd sizes (vector tails), several
// ranks, float and double, plus the attribute defaults of each op.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {

template <class Op, class T, class F>
void check_unary(F f, const std::vector<attribute>& attrs = {}, double lo = -6, double hi = 6, double rtol = 1e-5,
                 double atol = 1e-6) {
  const std::vector<extents> shapes{{}, {1}, {31}, {3, 67}, {2, 5, 129}, {70000}};
  thread_pool pool(3);
  unsigned seed = 11;
  for (auto& s : shapes) {
    auto x = test::random_values<T>(element_count(s), lo, hi, seed++);
    std::vector<T> e(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) e[i] = static_cast<T>(f(x[i]));
    INFO("shape " << to_string(s));
    auto r = test::run_op<Op>({tensor::from(x, s)}, attrs, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == s);
    test::require_close((*r)[0], e, rtol, atol);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Relu", "[elementwise]", float, double, std::int32_t, std::int8_t) {
  check_unary<ops::Relu, TestType>([](TestType x) { return x < 0 ? TestType(0) : x; }, {}, -100, 100);
}

TEST_CASE("Relu keeps NaN and rejects unsigned input", "[elementwise]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = test::run_op<ops::Relu>({tensor::from(std::vector<float>{nan, -1}, {2})});
  REQUIRE(r.ok());
  CHECK(std::isnan((*r)[0].values<float>()[0]));
  auto s = test::run_op<ops::Relu>({tensor::from(std::vector<std::uint8_t>{1}, {1})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("type constraint T") != std::string::npos);
}

TEMPLATE_TEST_CASE("Activations with default and given attributes", "[elementwise]", float, double) {
  using T = TestType;
  check_unary<ops::LeakyRelu, T>([](double x) { return x < 0 ? 0.01 * x : x; });
  check_unary<ops::LeakyRelu, T>([](double x) { return x < 0 ? 0.5f * x : x; }, {test::attr("alpha", 0.5f)});
  check_unary<ops::Sigmoid, T>([](double x) { return 1 / (1 + std::exp(-x)); }, {}, -30, 30);
  check_unary<ops::HardSigmoid, T>([](double x) { return std::clamp(0.2f * x + 0.5f, 0.0, 1.0); });
  check_unary<ops::HardSigmoid, T>([](double x) { return std::clamp(0.3f * x + 0.25f, 0.0, 1.0); },
                                   {test::attr("alpha", 0.3f), test::attr("beta", 0.25f)});
  check_unary<ops::HardSwish, T>([](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); });
  check_unary<ops::Tanh, T>([](double x) { return std::tanh(x); }, {}, -10, 10);
  check_unary<ops::Elu, T>([](double x) { return x < 0 ? std::expm1(x) : x; });
  check_unary<ops::Elu, T>([](double x) { return x < 0 ? 2.0f * std::expm1(x) : x; }, {test::attr("alpha", 2.0f)});
  const double sa = 1.67326319217681884765625, sg = 1.05070102214813232421875;
  check_unary<ops::Selu, T>([&](double x) { return sg * (x > 0 ? x : sa * std::expm1(x)); });
  check_unary<ops::Celu, T>([](double x) { return std::max(0.0, x) + std::min(0.0, 2.0 * std::expm1(x / 2)); },
                            {test::attr("alpha", 2.0f)});
  check_unary<ops::Softplus, T>([](double x) { return std::log1p(std::exp(x)); }, {}, -20, 20);
  check_unary<ops::Softsign, T>([](double x) { return x / (1 + std::abs(x)); });
  check_unary<ops::ThresholdedRelu, T>([](double x) { return x > 1 ? x : 0; });
  check_unary<ops::Mish, T>([](double x) { return x * std::tanh(std::log1p(std::exp(x))); });
  check_unary<ops::Gelu, T>([](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); });
  check_unary<ops::Gelu, T>(
      [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); },
      {test::attr("approximate", std::string("tanh"))});
}

TEST_CASE("Softplus does not overflow for large inputs", "[elementwise]") {
  auto r = test::run_op<ops::Softplus>({tensor::from(std::vector<float>{100, -100}, {2})});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<float>{100, 0}, 1e-6, 1e-6);
}

TEMPLATE_TEST_CASE("PRelu broadcasts the slope", "[elementwise]", float, double, std::int32_t) {
  const std::vector<std::pair<extents, extents>> pairs{
      {{29}, {29}}, {{2, 3, 5, 7}, {3, 1, 1}}, {{4, 9}, {}}, {{4, 9}, {9}}};
  unsigned seed = 17;
  for (auto& [xs, ss] : pairs) {
    auto x = test::random_values<TestType>(element_count(xs), -50, 50, seed++);
    auto s = test::random_values<TestType>(element_count(ss), -3, 3, seed++);
    auto r = test::run_op<ops::PRelu>({tensor::from(x, xs), tensor::from(s, ss)});
    REQUIRE(r.ok());
    auto e = test::reference_binary<TestType>(x, xs, s, ss,
                                              [](TestType v, TestType k) { return v < 0 ? TestType(k * v) : v; });
    test::require_close((*r)[0], e, 1e-6, 0);
  }
}

TEST_CASE("Activations reject bad attributes and slopes", "[elementwise]") {
  auto x = tensor::from(std::vector<float>(6, 1.0f), {2, 3});
  auto r = test::run_op<ops::Gelu>({x}, {test::attr("approximate", std::string("erf"))});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("approximate") != std::string::npos);
  auto s = test::run_op<ops::PRelu>({x, tensor::from(std::vector<float>(12, 1.0f), {2, 2, 3})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("slope") != std::string::npos);
  auto t = test::run_op<ops::Sigmoid>({tensor::from(std::vector<std::int32_t>{1}, {1})});
  REQUIRE(!t.ok());
}
