// Clip: scalar bounds, absent bounds, min > max, tensor bounds, integers;
// Clip_v6's expansion into Clip.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEMPLATE_TEST_CASE("Clip with scalar and absent bounds", "[elementwise]", float, double, std::int8_t, std::int64_t) {
  auto x = test::random_values<TestType>(1003, -100, 100, 3);
  auto xt = tensor::from(x, {17, 59});
  auto lo = tensor::scalar(TestType(-10)), hi = tensor::scalar(TestType(25));
  auto check = [&](const tensor* l, const tensor* h) {
    auto r = test::run_op<ops::Clip>({xt, l ? *l : tensor{}, h ? *h : tensor{}});
    REQUIRE(r.ok());
    std::vector<TestType> e(x);
    for (auto& v : e) {
      if (l && v < TestType(-10)) v = TestType(-10);
      if (h && v > TestType(25)) v = TestType(25);
    }
    test::require_close((*r)[0], e, 0, 0);
  };
  check(&lo, &hi);
  check(&lo, nullptr);
  check(nullptr, &hi);
  check(nullptr, nullptr);
}

TEST_CASE("Clip with min > max gives max; NaN stays NaN", "[elementwise]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = test::run_op<ops::Clip>(
      {tensor::from(std::vector<float>{-3, 0, 3, nan}, {4}), tensor::scalar(2.0f), tensor::scalar(1.0f)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<float>{1, 1, 1, nan}, 0, 0);
}

TEST_CASE("Clip with broadcast tensor bounds", "[elementwise]") {
  auto x = test::random_values<float>(2 * 3 * 5, -2, 2, 9);
  std::vector<float> lo{-1, -0.5f, 0}, hi{0.5f, 1, 1.5f};
  auto r = test::run_op<ops::Clip>(
      {tensor::from(x, {2, 3, 5}), tensor::from(lo, {3, 1}), tensor::from(hi, {3, 1})});
  REQUIRE(r.ok());
  std::vector<float> e(x);
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = std::min(std::max(e[i], lo[(i / 5) % 3]), hi[(i / 5) % 3]);
  test::require_close((*r)[0], e, 0, 0);
}

TEST_CASE("Clip rejects bounds of another type or a shape that grows x", "[elementwise]") {
  auto x = tensor::from(std::vector<float>(4, 0.0f), {4});
  auto r = test::run_op<ops::Clip>({x, tensor::scalar(1.0)});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("float64") != std::string::npos);
  auto s = test::run_op<ops::Clip>({x, tensor::from(std::vector<float>(8, 0.0f), {2, 4})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("does not broadcast") != std::string::npos);
}

namespace {
struct recorder final : ops::expand_context {
  struct node {
    std::string op;
    std::vector<ref> inputs;
  };
  std::vector<node> nodes;
  std::vector<tensor> constants;
  ref out = -1;
  int next = 100;
  int input_count() const override { return 1; }
  int output_count() const override { return 1; }
  ref input(int i) const override { return i; }
  ref constant(tensor t) override {
    constants.push_back(std::move(t));
    return next++;
  }
  result<std::vector<ref>> add(std::string_view op, std::vector<ref> inputs, std::vector<attribute>,
                               int) override {
    nodes.push_back({std::string(op), std::move(inputs)});
    return std::vector<ref>{next++};
  }
  void set_output(int, ref r) override { out = r; }
};
}  // namespace

TEST_CASE("Clip_v6 expands into Clip with CastLike'd constant bounds", "[elementwise]") {
  recorder c;
  ops::Clip_v6::attributes a;
  a.max = 6.0f;
  REQUIRE(ops::Clip_v6::expand(a, c).ok());
  REQUIRE(c.nodes.size() == 2);
  CHECK(c.nodes[0].op == "CastLike");
  CHECK(c.constants.at(0).values<float>()[0] == 6.0f);
  CHECK(c.nodes[1].op == "Clip");
  CHECK(c.nodes[1].inputs == std::vector<int>{0, -1, c.nodes[0].inputs.empty() ? -2 : 101});
  CHECK(c.out == 102);
}
