// Unary math ops (Abs ... Atanh, IsNaN, IsInf) against std:: references in
// double: sizes that leave vector tails, several ranks, float and double;
// float32 Exp and Erf run the selected ISA micro-kernel (rtol 1e-5).
#include <catch2/catch.hpp>

#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {

template <class Op, class T, class F>
void check_unary(F f, double lo, double hi, double rtol = 1e-5, double atol = 1e-6) {
  const std::vector<extents> shapes{{}, {7}, {3, 33}, {2, 3, 257}, {50001}};
  thread_pool pool(2);
  unsigned seed = 3;
  for (auto& s : shapes) {
    auto x = test::random_values<T>(element_count(s), lo, hi, seed++);
    std::vector<T> e(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) e[i] = static_cast<T>(f(static_cast<double>(x[i])));
    INFO(Op::name << " " << to_string(s));
    auto r = test::run_op<Op>({tensor::from(x, s)}, {}, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == s);
    test::require_close((*r)[0], e, rtol, atol);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Unary math on floats", "[elementwise]", float, double) {
  using T = TestType;
  check_unary<ops::Abs, T>([](double x) { return std::abs(x); }, -5, 5);
  check_unary<ops::Neg, T>([](double x) { return -x; }, -5, 5);
  check_unary<ops::Reciprocal, T>([](double x) { return 1 / x; }, 0.5, 5);
  check_unary<ops::Sqrt, T>([](double x) { return std::sqrt(x); }, 0, 100);
  check_unary<ops::Exp, T>([](double x) { return std::exp(x); }, -80, 80);
  check_unary<ops::Log, T>([](double x) { return std::log(x); }, 1e-3, 1e3);
  check_unary<ops::Floor, T>([](double x) { return std::floor(x); }, -5, 5);
  check_unary<ops::Ceil, T>([](double x) { return std::ceil(x); }, -5, 5);
  check_unary<ops::Round, T>([](double x) { return std::nearbyint(x); }, -5, 5);
  check_unary<ops::Sign, T>([](double x) { return double((0 < x) - (x < 0)); }, -5, 5);
  check_unary<ops::Erf, T>([](double x) { return std::erf(x); }, -4, 4);
  check_unary<ops::Sin, T>([](double x) { return std::sin(x); }, -10, 10);
  check_unary<ops::Cos, T>([](double x) { return std::cos(x); }, -10, 10);
  check_unary<ops::Tan, T>([](double x) { return std::tan(x); }, -1.5, 1.5);
  check_unary<ops::Asin, T>([](double x) { return std::asin(x); }, -1, 1);
  check_unary<ops::Acos, T>([](double x) { return std::acos(x); }, -1, 1);
  check_unary<ops::Atan, T>([](double x) { return std::atan(x); }, -10, 10);
  check_unary<ops::Sinh, T>([](double x) { return std::sinh(x); }, -5, 5);
  check_unary<ops::Cosh, T>([](double x) { return std::cosh(x); }, -5, 5);
  check_unary<ops::Asinh, T>([](double x) { return std::asinh(x); }, -10, 10);
  check_unary<ops::Acosh, T>([](double x) { return std::acosh(x); }, 1, 10);
  check_unary<ops::Atanh, T>([](double x) { return std::atanh(x); }, -0.99, 0.99);
}

TEST_CASE("Round halves to even; Abs, Neg and Sign on integers", "[elementwise]") {
  auto r = test::run_op<ops::Round>({tensor::from(std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f}, {6})});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<float>{0, 2, 2, -0.0f, -2, 2}, 0, 0);
  check_unary<ops::Abs, std::int32_t>([](double x) { return std::abs(x); }, -1000, 1000, 0, 0);
  check_unary<ops::Neg, std::int64_t>([](double x) { return -x; }, -1000, 1000, 0, 0);
  check_unary<ops::Sign, std::int8_t>([](double x) { return double((0 < x) - (x < 0)); }, -100, 100, 0, 0);
  check_unary<ops::Abs, std::uint8_t>([](double x) { return x; }, 0, 255, 0, 0);
}

TEST_CASE("IsNaN and IsInf with detect_negative/detect_positive", "[elementwise]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto x = tensor::from(std::vector<float>{1, inf, -inf, nan, 0}, {5});
  auto bools = [](const tensor& t) {
    auto v = t.values<bool>();
    return std::vector<bool>(v.begin(), v.end());
  };
  auto n = test::run_op<ops::IsNaN>({x});
  REQUIRE(n.ok());
  CHECK(bools((*n)[0]) == std::vector<bool>{false, false, false, true, false});
  auto i = test::run_op<ops::IsInf>({x});
  REQUIRE(i.ok());
  CHECK(bools((*i)[0]) == std::vector<bool>{false, true, true, false, false});
  auto p = test::run_op<ops::IsInf>({x}, {test::attr("detect_negative", 0)});
  REQUIRE(p.ok());
  CHECK(bools((*p)[0]) == std::vector<bool>{false, true, false, false, false});
  auto m = test::run_op<ops::IsInf>({tensor::from(std::vector<double>{-inf, inf}, {2})}, {test::attr("detect_positive", 0)});
  REQUIRE(m.ok());
  CHECK(bools((*m)[0]) == std::vector<bool>{true, false});
}

TEST_CASE("Unary math rejects types outside its constraint", "[elementwise]") {
  auto ints = tensor::from(std::vector<std::int32_t>{1, 2}, {2});
  for (auto r : {test::run_op<ops::Sqrt>({ints}), test::run_op<ops::Sin>({ints}), test::run_op<ops::IsNaN>({ints})}) {
    REQUIRE(!r.ok());
    CHECK(r.error().message().find("input 0 has type int32") != std::string::npos);
  }
  auto u = test::run_op<ops::Neg>({tensor::from(std::vector<std::uint32_t>{1}, {1})});
  REQUIRE(!u.ok());
}
