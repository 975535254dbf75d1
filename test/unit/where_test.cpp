// Where: three-way broadcasting for each element width and strings, against
// a scalar reference; value propagation of a shape selection at inference.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEMPLATE_TEST_CASE("Where selects with three-way broadcasting", "[elementwise]", float, double, std::int8_t,
                   std::int16_t, std::int64_t) {
  const std::vector<std::array<extents, 3>> cases{
      {{{31}, {31}, {31}}}, {{{3, 1}, {1, 17}, {}}}, {{{2, 3, 5}, {5}, {3, 1}}}, {{{300, 1}, {300, 70}, {70}}}};
  unsigned seed = 9;
  thread_pool pool(2);
  for (auto& [cs, xs, ys] : cases) {
    std::vector<bool> cond;
    for (double d : test::random_values<double>(element_count(cs), 0, 1, seed++)) cond.push_back(d < 0.5);
    auto x = test::random_values<TestType>(element_count(xs), -100, 100, seed++);
    auto y = test::random_values<TestType>(element_count(ys), -100, 100, seed++);
    auto r = test::run_op<ops::Where>({tensor::from(cond, cs), tensor::from(x, xs), tensor::from(y, ys)}, {}, 1, &pool);
    REQUIRE(r.ok());
    extents out = test::broadcast_shape({cs, xs, ys});
    REQUIRE((*r)[0].shape() == out);
    xt::xarray<TestType> e = xt::where(test::as_xt(cond, cs), test::as_xt(x, xs), test::as_xt(y, ys));
    test::require_close((*r)[0], std::vector<TestType>(e.begin(), e.end()), 0, 0);
  }
}

TEST_CASE("Where on strings", "[elementwise]") {
  auto r = test::run_op<ops::Where>(
      {tensor::from(std::vector<bool>{true, false}, {2}), test::strings({"x"}, {1}), test::strings({"y0", "y1"}, {2})});
  REQUIRE(r.ok());
  auto v = (*r)[0].values<std::string>();
  CHECK(v[0] == "x");
  CHECK(v[1] == "y1");
}

TEST_CASE("Where propagates a small int64 selection at inference", "[elementwise]") {
  test::harness_infer c;
  auto cond = tensor::from(std::vector<bool>{false, true, false}, {3});
  auto x = tensor::from(std::vector<std::int64_t>{1}, {1});
  auto y = tensor::from(std::vector<std::int64_t>{4, -1, 16}, {3});
  c.in_types = {{value_kind::tensor, dtype::boolean, sym_shape(extents{3})},
                {value_kind::tensor, dtype::int64, sym_shape(extents{1})},
                {value_kind::tensor, dtype::int64, sym_shape(extents{3})}};
  c.in_values = {&cond, &x, &y};
  c.out_types.resize(1);
  c.out_values.resize(1);
  REQUIRE(ops::Where::infer({}, c).ok());
  REQUIRE(c.out_values[0]);
  auto v = c.out_values[0]->values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(v.begin(), v.end()) == std::vector<std::int64_t>{4, 1, 16});
}

TEST_CASE("Where rejects a non-bool condition and mismatched branches", "[elementwise]") {
  auto f = tensor::from(std::vector<float>{1, 2}, {2});
  auto r = test::run_op<ops::Where>({f, f, f});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("type constraint B") != std::string::npos);
  auto c = tensor::from(std::vector<bool>{true, false}, {2});
  auto s = test::run_op<ops::Where>({c, f, tensor::from(std::vector<double>{1, 2}, {2})});
  REQUIRE(!s.ok());
  auto t = test::run_op<ops::Where>({c, f, tensor::from(std::vector<float>{1, 2, 3}, {3})});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("cannot be broadcast") != std::string::npos);
}
