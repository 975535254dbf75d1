#include "kernels/cpu/constant_of_shape.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::run_op;

TEST_CASE("ConstantOfShape: default float zero and typed values") {
  auto r = run_op<ops::ConstantOfShape>({tensor::from<std::int64_t>({2, 3}, {2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].type() == dtype::float32);
  test::require_close<float>((*r)[0], std::vector<float>(6, 0.f), 0, 0);
  attribute v{"value", tensor::from<std::int32_t>({7}, {1})};
  auto ri = run_op<ops::ConstantOfShape>({tensor::from<std::int64_t>({3, 1, 5}, {3})}, {v});
  REQUIRE(ri.ok());
  CHECK((*ri)[0].shape() == extents{3, 1, 5});
  test::require_close<std::int32_t>((*ri)[0], std::vector<std::int32_t>(15, 7), 0, 0);
  attribute h{"value", tensor::from<double>({-2.5}, {1})};
  auto rs = run_op<ops::ConstantOfShape>({tensor::zeros(dtype::int64, {0})}, {h});
  REQUIRE(rs.ok());
  CHECK((*rs)[0].rank() == 0);
  CHECK((*rs)[0].data<double>()[0] == -2.5);
}

TEST_CASE("ConstantOfShape: negative dims and multi-element values fail") {
  CHECK_FALSE(run_op<ops::ConstantOfShape>({tensor::from<std::int64_t>({2, -1}, {2})}).ok());
  attribute v{"value", tensor::from<float>({1, 2}, {2})};
  CHECK_FALSE(run_op<ops::ConstantOfShape>({tensor::from<std::int64_t>({2}, {1})}, {v}).ok());
  CHECK_FALSE(run_op<ops::ConstantOfShape>({tensor::from<std::int32_t>({2}, {1})}).ok());
}
