#include "kernels/cpu/flatten.hpp"
#include "kernels/cpu/reshape.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("Reshape: 0 copies, -1 infers, data keeps its order") {
  auto v = test::random_values<float>(2 * 3 * 5, -1, 1, 1);
  auto x = tensor::from(v, {2, 3, 5});
  auto r = run_op<ops::Reshape>({x, tensor::from<std::int64_t>({0, -1}, {2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 15});
  test::require_close((*r)[0], v, 0, 0);
  auto r2 = run_op<ops::Reshape>({x, tensor::from<std::int64_t>({5, 1, -1}, {3})});
  REQUIRE(r2.ok());
  CHECK((*r2)[0].shape() == extents{5, 1, 6});
}

TEST_CASE("Reshape: allowzero keeps a literal 0") {
  auto x = tensor::zeros(dtype::int32, {0, 3});
  auto r = run_op<ops::Reshape>({x, tensor::from<std::int64_t>({3, 0}, {2})}, {attr("allowzero", 1)});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{3, 0});
  CHECK_FALSE(run_op<ops::Reshape>({x, tensor::from<std::int64_t>({0, -1}, {2})}, {attr("allowzero", 1)}).ok());
}

TEST_CASE("Reshape: strings move as strings") {
  auto x = tensor::zeros(dtype::string, {2, 2});
  for (int i = 0; i < 4; ++i) x.data<std::string>()[i] = "s" + std::to_string(i) + std::string(40, 'x');
  auto r = run_op<ops::Reshape>({x, tensor::from<std::int64_t>({4}, {1})});
  REQUIRE(r.ok());
  for (int i = 0; i < 4; ++i) CHECK((*r)[0].data<std::string>()[i] == x.data<std::string>()[i]);
}

TEST_CASE("Reshape: symbolic -1 cancels shared factors") {
  sym_shape x({dim::symbol("N"), dim(3), dim(4)});
  std::vector<std::int64_t> t{-1, 12};
  auto s = ops::reshape_shape(x, t, false);
  REQUIRE(s.ok());
  CHECK(s->dims[0].str() == "N");
  std::vector<std::int64_t> t2{0, 2, -1};
  auto s2 = ops::reshape_shape(x, t2, false);
  REQUIRE(s2.ok());
  CHECK(s2->dims[2].value() == 6);
}

TEST_CASE("Reshape: bad targets fail clearly") {
  auto x = tensor::zeros(dtype::float32, {2, 3});
  auto r = run_op<ops::Reshape>({x, tensor::from<std::int64_t>({4, 2}, {2})});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("cannot reshape") != std::string::npos);
  CHECK_FALSE(run_op<ops::Reshape>({x, tensor::from<std::int64_t>({-1, -1}, {2})}).ok());
  CHECK_FALSE(run_op<ops::Reshape>({x, tensor::from<std::int64_t>({4, -1}, {2})}).ok());
  CHECK_FALSE(run_op<ops::Reshape>({x, tensor::from<std::int32_t>({6}, {1})}).ok());
}

TEST_CASE("Flatten: axis splits the dims, negative axes count from the end") {
  auto v = test::random_values<double>(2 * 3 * 4 * 5);
  auto x = tensor::from(v, {2, 3, 4, 5});
  for (auto [axis, rows] : {std::pair{0, 1}, {1, 2}, {2, 6}, {4, 120}, {-1, 24}}) {
    auto r = run_op<ops::Flatten>({x}, {attr("axis", axis)});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{rows, 120 / rows});
    test::require_close((*r)[0], v, 0, 0);
  }
  CHECK_FALSE(run_op<ops::Flatten>({x}, {attr("axis", 5)}).ok());
}
