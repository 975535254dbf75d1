// CumSum and CumProd over every axis, exclusive/reverse, against a scalar
// reference walking the axis; bad axis.
#include <catch2/catch.hpp>

#include "kernels/cpu/cumulative.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
template <class T, bool Product>
std::vector<T> reference(const std::vector<T>& x, const extents& shape, int axis, bool exclusive, bool reverse) {
  std::int64_t outer = 1, inner = 1, n = shape[axis];
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (std::size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  std::vector<T> y(x.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        T acc = Product ? T(1) : T(0);
        for (std::int64_t k = 0; k < n; ++k) {
          bool before = reverse ? k > j : k < j;
          if (before || (!exclusive && k == j)) {
            T v = x[(o * n + k) * inner + i];
            acc = Product ? acc * v : acc + v;
          }
        }
        y[(o * n + j) * inner + i] = acc;
      }
  return y;
}

template <class Op, class T, bool Product> void check(const extents& shape, double lo, double hi) {
  auto x = test::random_values<T>(element_count(shape), lo, hi, 31);
  thread_pool pool(2);
  for (int axis = 0; axis < int(shape.size()); ++axis)
    for (int exclusive : {0, 1})
      for (int reverse : {0, 1}) {
        INFO("axis " << axis << " exclusive " << exclusive << " reverse " << reverse);
        std::int64_t given = axis == 0 ? axis - std::int64_t(shape.size()) : axis;  // a negative axis too
        auto r = test::run_op<Op>({tensor::from(x, shape), tensor::scalar<std::int64_t>(given)},
                                  {test::attr("exclusive", exclusive), test::attr("reverse", reverse)}, 1, &pool);
        REQUIRE(r.ok());
        test::require_close((*r)[0], reference<T, Product>(x, shape, axis, exclusive, reverse), 1e-5, 1e-5);
      }
}
}  // namespace

TEST_CASE("CumSum over each axis, exclusive and reverse", "[misc]") {
  check<ops::CumSum, float, false>({3, 5, 7}, -1, 1);
  check<ops::CumSum, std::int32_t, false>({17}, -100, 100);
  check<ops::CumSum, double, false>({2, 1, 4, 3}, -1, 1);
}

TEST_CASE("CumProd over each axis, exclusive and reverse", "[misc]") {
  check<ops::CumProd, double, true>({3, 5, 7}, 0.5, 1.5);
  check<ops::CumProd, std::int64_t, true>({4, 6}, -3, 3);
}

TEST_CASE("CumSum rejects an out-of-range axis and a non-integer axis", "[misc]") {
  auto x = tensor::from(std::vector<float>{1, 2, 3}, {3});
  auto r = test::run_op<ops::CumSum>({x, tensor::scalar<std::int64_t>(1)});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("out of range") != std::string::npos);
  auto t = test::run_op<ops::CumSum>({x, tensor::scalar<float>(0)});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("T2") != std::string::npos);
}
