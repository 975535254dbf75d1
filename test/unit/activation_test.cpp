// Activations against scalar references: odd sizes (vector tails), several
// ranks, float and double, plus the attribute defaults of each op.
#include <catch2/catch.hpp>

#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {

template <class Op, class T, class F>
void check_unary(F f, const std::vector<graph::attribute>& attrs = {}, double lo = -6, double hi = 6,
                 double rtol = 1e-5, double atol = 1e-6) {
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
