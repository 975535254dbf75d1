#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/transpose.hpp"
#include "onyx/core/thread_pool.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {
// Reference: xtensor's transpose.
template <class T>
std::vector<T> reference(const std::vector<T>& x, const extents& shape, const std::vector<std::int64_t>& perm) {
  xt::xarray<T> y = xt::transpose(test::as_xt(x, shape), std::vector<std::size_t>(perm.begin(), perm.end()));
  return {y.begin(), y.end()};
}
}  // namespace

TEMPLATE_TEST_CASE("Transpose: every permutation of odd-sized ranks 1-4", "", float, std::int8_t, std::int16_t,
                   double) {
  for (extents shape :
       {extents{7}, extents{3, 5}, extents{37, 41}, extents{2, 3, 5}, extents{3, 1, 9, 33}, extents{2, 3, 4, 5}}) {
    auto v = test::random_values<TestType>(element_count(shape), -100, 100, 3);
    auto x = tensor::from(v, shape);
    std::vector<std::int64_t> perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      INFO("shape " << to_string(shape));
      auto r = run_op<ops::Transpose>({x}, {attr("perm", perm)});
      REQUIRE(r.ok());
      test::require_close((*r)[0], reference(v, shape, perm), 0, 0);
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST_CASE("Transpose: tiled batched 2-D path with a pool, default perm reverses") {
  thread_pool pool(4);
  extents shape{3, 67, 129};
  auto v = test::random_values<float>(element_count(shape), -1, 1, 5);
  auto x = tensor::from(v, shape);
  std::vector<std::int64_t> perm{0, 2, 1};
  auto r = run_op<ops::Transpose>({x}, {attr("perm", perm)}, 1, &pool);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{3, 129, 67});
  test::require_close((*r)[0], reference(v, shape, perm), 0, 0);
  auto d = run_op<ops::Transpose>({x}, {}, 1, &pool);
  REQUIRE(d.ok());
  test::require_close((*d)[0], reference(v, shape, {2, 1, 0}), 0, 0);
}

TEST_CASE("Transpose: bad perms fail") {
  auto x = tensor::zeros(dtype::float32, {2, 3});
  CHECK_FALSE(run_op<ops::Transpose>({x}, {attr("perm", std::vector<std::int64_t>{0, 0})}).ok());
  CHECK_FALSE(run_op<ops::Transpose>({x}, {attr("perm", std::vector<std::int64_t>{0, 1, 2})}).ok());
}
