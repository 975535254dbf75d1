// Sum, Mean, Max, Min: one to four inputs with broadcasting, against a
// scalar reference; NaN propagation for Max/Min.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {

template <class Op, class T, class F>
void check_variadic(const std::vector<extents>& shapes, F f, bool mean = false, const thread_pool* pool = nullptr) {
  std::vector<std::vector<T>> data;
  std::vector<tensor> in;
  unsigned seed = 7;
  for (auto& s : shapes) {
    data.push_back(test::random_values<T>(element_count(s), -20, 20, seed++));
    in.push_back(tensor::from(data.back(), s));
  }
  extents out = test::broadcast_shape(shapes);
  xt::xarray<T> acc = test::as_xt(data[0], shapes[0]);
  for (std::size_t k = 1; k < shapes.size(); ++k)
    acc = xt::make_lambda_xfunction(F(f), acc, test::as_xt(data[k], shapes[k]));
  if (mean) acc = acc / static_cast<T>(shapes.size());
  std::vector<T> expected(acc.begin(), acc.end());
  INFO(shapes.size() << " inputs, output " << to_string(out));
  auto r = test::run_op<Op>(in, {}, 1, pool);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == out);
  test::require_close((*r)[0], expected, 1e-5, 1e-5);
}

const std::vector<std::vector<extents>> cases = {
    {{5, 7}},
    {{5, 7}, {5, 7}},
    {{3, 1, 9}, {4, 1}, {9}},
    {{2, 3}, {1}, {4, 2, 3}, {2, 1}},
    {{333, 65}, {333, 65}, {65}},
};

}  // namespace

TEMPLATE_TEST_CASE("Sum and Mean of broadcast inputs", "[elementwise]", float, double) {
  thread_pool pool(2);
  for (auto& shapes : cases) {
    check_variadic<ops::Sum, TestType>(
        shapes, [](TestType a, TestType b) { return a + b; }, false, &pool);
    check_variadic<ops::Mean, TestType>(
        shapes, [](TestType a, TestType b) { return a + b; }, true);
  }
}

TEMPLATE_TEST_CASE("Max and Min of broadcast inputs", "[elementwise]", float, std::int32_t, std::int64_t) {
  for (auto& shapes : cases) {
    check_variadic<ops::Max, TestType>(shapes, [](TestType a, TestType b) { return std::max(a, b); });
    check_variadic<ops::Min, TestType>(shapes, [](TestType a, TestType b) { return std::min(a, b); });
  }
}

TEST_CASE("Max and Min propagate NaN from either input", "[elementwise]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto a = tensor::from(std::vector<float>{nan, 1, 2}, {3});
  auto b = tensor::from(std::vector<float>{0, nan, 3}, {3});
  for (auto r : {test::run_op<ops::Max>({a, b}), test::run_op<ops::Min>({a, b})}) {
    REQUIRE(r.ok());
    auto y = (*r)[0].values<float>();
    CHECK(std::isnan(y[0]));
    CHECK(std::isnan(y[1]));
  }
}

TEST_CASE("Variadic ops reject mixed types and shapes that do not broadcast", "[elementwise]") {
  auto a = tensor::from(std::vector<float>(6, 1.0f), {2, 3});
  auto r = test::run_op<ops::Sum>({a, a, tensor::from(std::vector<double>(3, 1.0), {3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("input 2 has type float64") != std::string::npos);
  auto s = test::run_op<ops::Max>({a, tensor::from(std::vector<float>(2, 1.0f), {2})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("cannot be broadcast") != std::string::npos);
  auto t = test::run_op<ops::Mean>({tensor::from(std::vector<std::int32_t>(3, 1), {3})});
  REQUIRE(!t.ok());
}
