// Equal, Less, LessOrEqual, Greater, GreaterOrEqual: bool results with
// broadcasting against a scalar reference; Equal on strings and bools.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::bools;

namespace {


template <class Op, class T, class F> void check_compare(F f) {
  const std::vector<std::pair<extents, extents>> pairs{{{41}, {41}}, {{3, 17}, {}}, {{2, 1, 9}, {5, 1}}, {{4, 1}, {1, 300}}};
  unsigned seed = 21;
  for (auto& [as, bs] : pairs) {
    // Few distinct values, so equal pairs occur.
    auto a = test::random_values<T>(element_count(as), -3, 3, seed++);
    auto b = test::random_values<T>(element_count(bs), -3, 3, seed++);
    auto r = test::run_op<Op>({tensor::from(a, as), tensor::from(b, bs)});
    REQUIRE(r.ok());
    REQUIRE((*r)[0].type() == dtype::boolean);
    INFO(Op::name << " " << to_string(as) << " vs " << to_string(bs));
    CHECK(bools((*r)[0]) == test::reference_binary<bool>(a, as, b, bs, f));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Comparisons broadcast like the reference", "[elementwise]", float, double, std::int32_t,
                   std::int64_t, std::uint16_t) {
  using T = TestType;
  check_compare<ops::Equal, T>([](T a, T b) { return a == b; });
  check_compare<ops::Less, T>([](T a, T b) { return a < b; });
  check_compare<ops::LessOrEqual, T>([](T a, T b) { return a <= b; });
  check_compare<ops::Greater, T>([](T a, T b) { return a > b; });
  check_compare<ops::GreaterOrEqual, T>([](T a, T b) { return a >= b; });
}

TEST_CASE("Equal on strings and bools; NaN is unequal", "[elementwise]") {
  auto a = test::strings({"a", "bc", "", "bc"}, {2, 2});
  auto b = test::strings({"bc", "bc"}, {2});
  auto r = test::run_op<ops::Equal>({a, b});
  REQUIRE(r.ok());
  CHECK(bools((*r)[0]) == std::vector<bool>{false, true, false, true});
  auto s = test::run_op<ops::Equal>(
      {tensor::from(std::vector<bool>{true, false}, {2}), tensor::from(std::vector<bool>{true}, {1})});
  REQUIRE(s.ok());
  CHECK(bools((*s)[0]) == std::vector<bool>{true, false});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto n = test::run_op<ops::Equal>({tensor::from(std::vector<float>{nan}, {1}), tensor::from(std::vector<float>{nan}, {1})});
  REQUIRE(n.ok());
  CHECK(!bools((*n)[0])[0]);
}

TEST_CASE("Comparisons reject mixed types and bool ordering", "[elementwise]") {
  auto r = test::run_op<ops::Less>(
      {tensor::from(std::vector<float>{1}, {1}), tensor::from(std::vector<std::int32_t>{1}, {1})});
  REQUIRE(!r.ok());
  auto s = test::run_op<ops::Greater>(
      {tensor::from(std::vector<bool>{true}, {1}), tensor::from(std::vector<bool>{true}, {1})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("type constraint T") != std::string::npos);
}
