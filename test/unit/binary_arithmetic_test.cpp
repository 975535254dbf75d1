// Add, Sub, Mul, Div, Pow, Mod against a scalar reference, over the
// broadcasting patterns the engine special-cases (same shape, scalar, row,
// middle-axis, both sides broadcast) and odd extents that leave vector tails.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::reference_binary;

namespace {

const std::vector<std::pair<extents, extents>> shape_pairs = {
    {{37}, {37}},                  // same shape
    {{3, 5, 7}, {}},               // tensor-scalar
    {{}, {3, 5, 7}},               // scalar-tensor
    {{2, 9, 13}, {13}},            // row broadcast
    {{2, 3, 4, 5}, {3, 1, 1}},     // channel bias
    {{4, 1, 6}, {1, 5, 1}},        // both sides broadcast
    {{2, 1, 3, 1, 5}, {2, 4, 3, 7, 1}},  // alternating patterns
    {{1000, 67}, {1000, 1}},       // big enough to split over the pool
    {{0, 3}, {3}},                 // empty output
};

template <class Op, class T, class F>
void check_binary(F f, double lo, double hi, const thread_pool* pool = nullptr, double rtol = 1e-6) {
  unsigned seed = 1;
  for (auto& [as, bs] : shape_pairs) {
    auto a = test::random_values<T>(element_count(as), lo, hi, seed++);
    auto b = test::random_values<T>(element_count(bs), lo, hi, seed++);
    INFO("shapes " << to_string(as) << " and " << to_string(bs));
    auto r = test::run_op<Op>({tensor::from(a, as), tensor::from(b, bs)}, {}, 1, pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == test::broadcast_shape({as, bs}));
    test::require_close((*r)[0], reference_binary<T>(a, as, b, bs, f), rtol, 0);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Add, Sub, Mul, Div broadcast like the reference", "[elementwise]", float, double, std::int32_t,
                   std::int64_t, std::uint8_t) {
  thread_pool pool(3);
  const double lo = std::is_signed_v<TestType> ? -50 : 0;
  check_binary<ops::Add, TestType>([](TestType a, TestType b) { return TestType(a + b); }, lo, 100, &pool);
  check_binary<ops::Sub, TestType>([](TestType a, TestType b) { return TestType(a - b); }, lo, 100);
  check_binary<ops::Mul, TestType>([](TestType a, TestType b) { return TestType(a * b); }, lo, 100, &pool);
  check_binary<ops::Div, TestType>([](TestType a, TestType b) { return b == 0 ? TestType(0) : TestType(a / b); },
                                   lo, 100);
}

TEST_CASE("Add on half types computes in float", "[elementwise]") {
  std::vector<float16_t> a{to_float16(1.5f), to_float16(-2.0f), to_float16(65504.0f)};
  std::vector<float16_t> b{to_float16(0.25f)};
  auto r = test::run_op<ops::Add>({tensor::from(a, {3}), tensor::from(b, {1})});
  REQUIRE(r.ok());
  auto y = (*r)[0].values<float16_t>();
  CHECK(to_float(y[0]) == 1.75f);
  CHECK(to_float(y[1]) == -1.75f);
  CHECK(to_float(y[2]) == 65504.0f);
  std::vector<bfloat16_t> c{to_bfloat16(3.0f), to_bfloat16(-1.0f)};
  auto m = test::run_op<ops::Mul>({tensor::from(c, {2}), tensor::from(c, {2})});
  REQUIRE(m.ok());
  CHECK(to_float((*m)[0].values<bfloat16_t>()[0]) == 9.0f);
}

TEST_CASE("Integer Div truncates toward zero and does not trap", "[elementwise]") {
  std::vector<std::int32_t> a{7, -7, 7, -7, 5, std::numeric_limits<std::int32_t>::min()};
  std::vector<std::int32_t> b{2, 2, -2, -2, 0, -1};
  auto r = test::run_op<ops::Div>({tensor::from(a, {6}), tensor::from(b, {6})});
  REQUIRE(r.ok());
  auto y = (*r)[0].values<std::int32_t>();
  CHECK(std::vector<std::int32_t>(y.begin(), y.end()) ==
        std::vector<std::int32_t>{3, -3, -3, 3, 0, std::numeric_limits<std::int32_t>::min()});
}

TEST_CASE("Binary arithmetic rejects mismatched types and shapes", "[elementwise]") {
  auto a = tensor::from(std::vector<float>(6, 1.0f), {2, 3});
  auto r = test::run_op<ops::Add>({a, tensor::from(std::vector<double>(3, 1.0), {3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("same") != std::string::npos);
  auto s = test::run_op<ops::Mul>({a, tensor::from(std::vector<float>(4, 1.0f), {4})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("cannot be broadcast") != std::string::npos);
  auto t = test::run_op<ops::Sub>({tensor::from(std::vector<bool>{true}, {1}), tensor::from(std::vector<bool>{true}, {1})});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("type constraint T") != std::string::npos);
}

TEST_CASE("Inference computes small integer results (shape arithmetic)", "[elementwise]") {
  test::harness_infer c;
  auto shape = tensor::from(std::vector<std::int64_t>{2, 12, 64}, {3});
  auto divisor = tensor::from(std::vector<std::int64_t>{1, 4, 1}, {3});
  c.in_types = {{value_kind::tensor, dtype::int64, sym_shape(extents{3})},
                {value_kind::tensor, dtype::int64, sym_shape(extents{3})}};
  c.in_values = {&shape, &divisor};
  c.out_types.resize(1);
  c.out_values.resize(1);
  REQUIRE(ops::Div::infer({}, c).ok());
  REQUIRE(c.out_values[0]);
  auto v = c.out_values[0]->values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(v.begin(), v.end()) == std::vector<std::int64_t>{2, 3, 64});
}

TEST_CASE("Pow over (T, T1) pairs", "[elementwise]") {
  auto x = test::random_values<float>(2 * 3 * 7, 0.1, 3, 31);
  auto y = test::random_values<float>(7, -2, 2, 32);
  auto r = test::run_op<ops::Pow>({tensor::from(x, {2, 3, 7}), tensor::from(y, {7})});
  REQUIRE(r.ok());
  test::require_close((*r)[0], reference_binary<float>(x, {2, 3, 7}, y, {7}, [](float a, float b) { return std::pow(a, b); }),
                      1e-5, 0);
  auto d = test::run_op<ops::Pow>({tensor::from(std::vector<double>{2, 3, -2}, {3}),
                                   tensor::from(std::vector<std::int64_t>{3}, {1})});
  REQUIRE(d.ok());
  test::require_close((*d)[0], std::vector<double>{8, 27, -8}, 0, 0);
  // Integer powers are exact beyond double's 53 bits; negative exponents give 0 unless |x| = 1.
  auto i = test::run_op<ops::Pow>({tensor::from(std::vector<std::int64_t>{3, -1, -1, 2, 1}, {5}),
                                   tensor::from(std::vector<std::int32_t>{39, 3, -4, -1, -7}, {5})});
  REQUIRE(i.ok());
  auto v = (*i)[0].values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(v.begin(), v.end()) == std::vector<std::int64_t>{4052555153018976267, -1, 1, 0, 1});
  auto f = test::run_op<ops::Pow>({tensor::from(std::vector<std::int32_t>{4, 9}, {2}),
                                   tensor::from(std::vector<float>{0.5f}, {1})});
  REQUIRE(f.ok());
  test::require_close((*f)[0], std::vector<std::int32_t>{2, 3}, 0, 0);
  auto bad = test::run_op<ops::Pow>({tensor::from(std::vector<std::uint8_t>{2}, {1}), tensor::from(std::vector<float>{1}, {1})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("type constraint T") != std::string::npos);
}

TEST_CASE("Pow by a one-element 2 or 3 (the multiply path) against the power in double", "[elementwise]") {
  auto x = test::random_values<float>(1000, -30, 30, 33);
  for (float e : {2.0f, 3.0f}) {
    auto r = test::run_op<ops::Pow>({tensor::from(x, {10, 100}), tensor::from(std::vector<float>{e}, {})});
    REQUIRE(r.ok());
    std::vector<float> want(x.size());
    // The exact power rounded once (glibc's powf itself may be 0.8 ulp off):
    // x * x is that correctly rounded square; x * x * x rounds twice.
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = static_cast<float>(std::pow(static_cast<double>(x[i]), e));
    test::require_close((*r)[0], want, e == 2 ? 0 : 2.4e-7, 0);
  }
}

TEST_CASE("Mod: floor (fmod = 0) and truncating (fmod = 1) semantics", "[elementwise]") {
  auto a = tensor::from(std::vector<std::int32_t>{7, -7, 7, -7, 5, 6}, {6});
  auto b = tensor::from(std::vector<std::int32_t>{3, 3, -3, -3, 0, -1}, {6});
  auto r = test::run_op<ops::Mod>({a, b});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int32_t>{1, 2, -2, -1, 0, 0}, 0, 0);
  auto t = test::run_op<ops::Mod>({a, b}, {test::attr("fmod", 1)});
  REQUIRE(t.ok());
  test::require_close((*t)[0], std::vector<std::int32_t>{1, -1, 1, -1, 0, 0}, 0, 0);
  auto x = test::random_values<double>(3 * 11, -20, 20, 41);
  auto y = test::random_values<double>(11, 0.5, 4, 42);
  auto f = test::run_op<ops::Mod>({tensor::from(x, {3, 11}), tensor::from(y, {11})}, {test::attr("fmod", 1)});
  REQUIRE(f.ok());
  test::require_close((*f)[0], reference_binary<double>(x, {3, 11}, y, {11}, [](double p, double q) { return std::fmod(p, q); }),
                      0, 0);
  auto bad = test::run_op<ops::Mod>({a, b}, {test::attr("fmod", 2)});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("fmod") != std::string::npos);
}
