// And, Or, Xor, Not on bool tensors with broadcasting; BitShift both ways;
// BitwiseAnd/Or/Xor/Not on integers.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::bools;

namespace {
std::vector<bool> random_bools(std::size_t n, unsigned seed) {
  std::vector<bool> v;
  for (double d : test::random_values<double>(n, 0, 1, seed)) v.push_back(d < 0.5);
  return v;
}
}  // namespace

TEST_CASE("And, Or, Xor broadcast; Not negates", "[elementwise]") {
  const std::vector<std::pair<extents, extents>> pairs{{{37}, {37}}, {{3, 5}, {}}, {{2, 1, 7}, {4, 1}}};
  unsigned seed = 5;
  for (auto& [as, bs] : pairs) {
    auto a = random_bools(element_count(as), seed++), b = random_bools(element_count(bs), seed++);
    auto at = tensor::from(a, as), bt = tensor::from(b, bs);
    auto r_and = test::run_op<ops::And>({at, bt});
    auto r_or = test::run_op<ops::Or>({at, bt});
    auto r_xor = test::run_op<ops::Xor>({at, bt});
    REQUIRE((r_and.ok() && r_or.ok() && r_xor.ok()));
    CHECK(bools((*r_and)[0]) == test::reference_binary<bool>(a, as, b, bs, [](bool x, bool y) { return x && y; }));
    CHECK(bools((*r_or)[0]) == test::reference_binary<bool>(a, as, b, bs, [](bool x, bool y) { return x || y; }));
    CHECK(bools((*r_xor)[0]) == test::reference_binary<bool>(a, as, b, bs, [](bool x, bool y) { return x != y; }));
    auto r_not = test::run_op<ops::Not>({at});
    REQUIRE(r_not.ok());
    auto n = bools((*r_not)[0]);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(n[i] == !a[i]);
  }
}

TEST_CASE("BitShift left and right, wide shifts give 0", "[elementwise]") {
  auto x = tensor::from(std::vector<std::uint8_t>{16, 4, 1, 255}, {4});
  auto y = tensor::from(std::vector<std::uint8_t>{1, 2, 7, 8}, {4});
  auto l = test::run_op<ops::BitShift>({x, y}, {test::attr("direction", std::string("LEFT"))});
  REQUIRE(l.ok());
  test::require_close((*l)[0], std::vector<std::uint8_t>{32, 16, 128, 0}, 0, 0);
  auto r = test::run_op<ops::BitShift>({x, y}, {test::attr("direction", std::string("RIGHT"))});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::uint8_t>{8, 1, 0, 0}, 0, 0);
  auto x64 = tensor::from(std::vector<std::uint64_t>{1, 3, 1ull << 63}, {3});
  auto s64 = tensor::from(std::vector<std::uint64_t>{63}, {1});
  auto w = test::run_op<ops::BitShift>({x64, s64}, {test::attr("direction", std::string("RIGHT"))});
  REQUIRE(w.ok());
  test::require_close((*w)[0], std::vector<std::uint64_t>{0, 0, 1}, 0, 0);
}

TEST_CASE("Logic ops reject non-bool input and a bad direction", "[elementwise]") {
  auto f = tensor::from(std::vector<float>{1}, {1});
  auto r = test::run_op<ops::And>({f, f});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("type constraint T") != std::string::npos);
  auto u = tensor::from(std::vector<std::uint8_t>{1}, {1});
  auto s = test::run_op<ops::BitShift>({u, u}, {test::attr("direction", std::string("UP"))});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("direction") != std::string::npos);
  auto m = test::run_op<ops::BitShift>({u, u});
  REQUIRE(!m.ok());
  CHECK(m.error().message().find("missing required attribute 'direction'") != std::string::npos);
}

namespace {
template <class T> void check_bitwise() {
  INFO(name(dtype_of<T>));
  const std::vector<std::pair<extents, extents>> pairs{{{19}, {19}}, {{3, 5}, {}}, {{2, 1, 7}, {4, 1}}};
  unsigned seed = 17;
  auto integers = [&](std::size_t n) {
    std::vector<T> v;  // the full range of T, negative values included
    for (double d : test::random_values<double>(n, 0, 1, seed++))
      v.push_back(static_cast<T>(static_cast<std::uint64_t>(d * 18446744073709551615.0)));
    return v;
  };
  for (auto& [as, bs] : pairs) {
    auto a = integers(element_count(as)), b = integers(element_count(bs));
    auto at = tensor::from(a, as), bt = tensor::from(b, bs);
    auto r_and = test::run_op<ops::BitwiseAnd>({at, bt});
    auto r_or = test::run_op<ops::BitwiseOr>({at, bt});
    auto r_xor = test::run_op<ops::BitwiseXor>({at, bt});
    REQUIRE((r_and.ok() && r_or.ok() && r_xor.ok()));
    auto values = [](const tensor& t) {
      auto v = t.values<T>();
      return std::vector<T>(v.begin(), v.end());
    };
    CHECK(values((*r_and)[0]) == test::reference_binary<T>(a, as, b, bs, [](T x, T y) { return T(x & y); }));
    CHECK(values((*r_or)[0]) == test::reference_binary<T>(a, as, b, bs, [](T x, T y) { return T(x | y); }));
    CHECK(values((*r_xor)[0]) == test::reference_binary<T>(a, as, b, bs, [](T x, T y) { return T(x ^ y); }));
    auto r_not = test::run_op<ops::BitwiseNot>({at});
    REQUIRE(r_not.ok());
    auto n = values((*r_not)[0]);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(n[i] == T(~a[i]));
  }
}
}  // namespace

TEST_CASE("BitwiseAnd, Or, Xor broadcast; BitwiseNot flips every bit", "[elementwise]") {
  check_bitwise<std::int8_t>();
  check_bitwise<std::uint8_t>();
  check_bitwise<std::int16_t>();
  check_bitwise<std::uint32_t>();
  check_bitwise<std::int64_t>();
  check_bitwise<std::uint64_t>();
}

TEST_CASE("Bitwise ops reject floats and mixed types", "[elementwise]") {
  auto f = tensor::from(std::vector<float>{1, 2}, {2});
  auto i = tensor::from(std::vector<std::int32_t>{1, 2}, {2});
  auto l = tensor::from(std::vector<std::int64_t>{1, 2}, {2});
  CHECK_FALSE(test::run_op<ops::BitwiseAnd>({f, f}).ok());
  CHECK_FALSE(test::run_op<ops::BitwiseOr>({i, l}).ok());
  CHECK_FALSE(test::run_op<ops::BitwiseNot>({f}).ok());
}
