#include "kernels/cpu/eye_like.hpp"
#include "kernels/cpu/trilu.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("Trilu: upper and lower for a range of k on batched non-square matrices") {
  const std::int64_t bt = 2, m = 4, n = 6;
  auto v = test::random_values<std::int64_t>(bt * m * n, 1, 100, 5);
  auto x = tensor::from(v, {bt, m, n});
  for (int upper : {0, 1})
    for (std::int64_t k : {-5, -1, 0, 2, 7}) {
      auto r = run_op<ops::Trilu>({x, tensor::scalar<std::int64_t>(k)}, {attr("upper", upper)});
      REQUIRE(r.ok());
      std::vector<std::int64_t> expected;
      for (std::int64_t b = 0; b < bt; ++b)
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            bool keep = upper ? j - i >= k : j - i <= k;
            expected.push_back(keep ? v[(b * m + i) * n + j] : 0);
          }
      test::require_close((*r)[0], expected, 0, 0);
    }
  CHECK_FALSE(run_op<ops::Trilu>({tensor::zeros(dtype::float32, {3})}).ok());
}

TEST_CASE("EyeLike: diagonal k, dtype attribute") {
  auto r = run_op<ops::EyeLike>({tensor::zeros(dtype::int32, {3, 4})}, {attr("k", 1), attr("dtype", 1)});
  REQUIRE(r.ok());
  CHECK((*r)[0].type() == dtype::float32);
  test::require_close<float>((*r)[0], {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 0, 0);
  auto neg = run_op<ops::EyeLike>({tensor::zeros(dtype::int64, {3, 2})}, {attr("k", -1)});
  REQUIRE(neg.ok());
  test::require_close<std::int64_t>((*neg)[0], {0, 0, 1, 0, 0, 1}, 0, 0);
  CHECK_FALSE(run_op<ops::EyeLike>({tensor::zeros(dtype::float32, {2, 2, 2})}).ok());
  CHECK_FALSE(run_op<ops::EyeLike>({tensor::zeros(dtype::float32, {2, 2})}, {attr("dtype", 8)}).ok());
}
