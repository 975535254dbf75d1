#include "kernels/cpu/gather.hpp"
#include "op_harness.hpp"
#include "onyx/core/thread_pool.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEMPLATE_TEST_CASE("Gather: every axis, negative indices, 2-D indices", "", std::int32_t, std::int64_t) {
  thread_pool pool(3);
  extents shape{3, 4, 5};
  auto v = test::random_values<double>(60, -10, 10, 9);
  auto x = tensor::from(v, shape);
  std::vector<TestType> iv{0, -1, 2, 1, -3, 0};
  auto idx = tensor::from(iv, {2, 3});
  for (int axis = 0; axis < 3; ++axis) {
    auto r = run_op<ops::Gather>({x, idx}, {attr("axis", axis)}, 1, &pool);
    REQUIRE(r.ok());
    extents o(shape.begin(), shape.begin() + axis);
    o.push_back(2);
    o.push_back(3);
    o.insert(o.end(), shape.begin() + axis + 1, shape.end());
    REQUIRE((*r)[0].shape() == o);
    std::vector<double> expected;
    for (std::int64_t i = 0; i < element_count(o); ++i) {
      std::vector<std::int64_t> oi(4);
      std::int64_t rest = i;
      for (int k = 3; k >= 0; --k) oi[k] = rest % o[k], rest /= o[k];
      std::vector<std::int64_t> xi;
      for (int k = 0; k < axis; ++k) xi.push_back(oi[k]);
      std::int64_t j = iv[oi[axis] * 3 + oi[axis + 1]];
      xi.push_back(j < 0 ? j + shape[axis] : j);
      for (int k = axis + 2; k < 4; ++k) xi.push_back(oi[k]);
      expected.push_back(v[(xi[0] * 4 + xi[1]) * 5 + xi[2]]);
    }
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("Gather: scalar index drops the axis, strings") {
  auto x = tensor::zeros(dtype::string, {3});
  x.data<std::string>()[2] = "two";
  auto r = run_op<ops::Gather>({x, tensor::scalar<std::int64_t>(-1)});
  REQUIRE(r.ok());
  CHECK((*r)[0].rank() == 0);
  CHECK((*r)[0].data<std::string>()[0] == "two");
}

TEST_CASE("Gather: out-of-range index names value, position and range") {
  auto x = tensor::zeros(dtype::float32, {4, 2});
  auto r = run_op<ops::Gather>({x, tensor::from<std::int64_t>({0, 1, 2, 4}, {2, 2})});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == errc::out_of_range);
  CHECK(r.error().message() == "index 4 at position [1,1] is out of range [-4, 3]");
  CHECK_FALSE(run_op<ops::Gather>({x, tensor::from<std::int32_t>({-5}, {1})}).ok());
  CHECK_FALSE(run_op<ops::Gather>({x, tensor::from<float>({0}, {1})}).ok());
}
