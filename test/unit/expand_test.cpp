#include "kernels/cpu/expand.hpp"
#include "kernels/cpu/tile.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::run_op;

TEST_CASE("Expand: leading dims, 1s in either shape") {
  auto v = test::random_values<double>(3, -1, 1, 2);
  auto x = tensor::from(v, {3, 1});
  auto r = run_op<ops::Expand>({x, tensor::from<std::int64_t>({2, 1, 5}, {3})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 3, 5});
  std::vector<double> expected;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 5; ++c) expected.push_back(v[b]);
  test::require_close((*r)[0], expected, 0, 0);
  auto row = run_op<ops::Expand>({tensor::from<std::int16_t>({1, 2, 3}, {3}), tensor::from<std::int64_t>({2, 3}, {2})});
  REQUIRE(row.ok());
  test::require_close<std::int16_t>((*row)[0], {1, 2, 3, 1, 2, 3}, 0, 0);
  CHECK_FALSE(run_op<ops::Expand>({x, tensor::from<std::int64_t>({4, 2}, {2})}).ok());
}

TEST_CASE("Tile: repeats per dim, zero repeats") {
  auto x = tensor::from<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto r = run_op<ops::Tile>({x, tensor::from<std::int64_t>({2, 3}, {2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{4, 9});
  std::vector<std::int32_t> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 9; ++j) expected.push_back(1 + (i % 2) * 3 + (j % 3));
  test::require_close((*r)[0], expected, 0, 0);
  auto z = run_op<ops::Tile>({x, tensor::from<std::int64_t>({0, 1}, {2})});
  REQUIRE(z.ok());
  CHECK((*z)[0].size() == 0);
  CHECK_FALSE(run_op<ops::Tile>({x, tensor::from<std::int64_t>({2}, {1})}).ok());
}
