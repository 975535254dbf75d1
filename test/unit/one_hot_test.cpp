#include "kernels/cpu/one_hot.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("OneHot: axis placement, negative and out-of-range indices") {
  auto idx = tensor::from<std::int64_t>({0, -1, 5, 2}, {2, 2});
  auto values = tensor::from<float>({-1, 3}, {2});
  const std::int64_t depth = 3;
  for (int axis : {-1, 0, 1}) {
    auto r = run_op<ops::OneHot>({idx, tensor::scalar<std::int64_t>(depth), values}, {attr("axis", axis)});
    REQUIRE(r.ok());
    int ax = axis < 0 ? 2 : axis;
    extents o{2, 2};
    o.insert(o.begin() + ax, depth);
    REQUIRE((*r)[0].shape() == o);
    std::vector<float> expected;
    for (std::int64_t a = 0; a < o[0]; ++a)
      for (std::int64_t b = 0; b < o[1]; ++b)
        for (std::int64_t c = 0; c < o[2]; ++c) {
          std::int64_t co[3] = {a, b, c}, d = co[ax], ii[2], n = 0;
          for (int k = 0; k < 3; ++k)
            if (k != ax) ii[n++] = co[k];
          std::int64_t v = idx.data<std::int64_t>()[ii[0] * 2 + ii[1]];
          expected.push_back((v < 0 ? v + depth : v) == d ? 3.f : -1.f);
        }
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("OneHot: float indices truncate, bad values fail") {
  auto r = run_op<ops::OneHot>({tensor::from<float>({1.7f}, {1}), tensor::scalar<float>(2.f), tensor::from<std::int32_t>({0, 1}, {2})});
  REQUIRE(r.ok());
  test::require_close<std::int32_t>((*r)[0], {0, 1}, 0, 0);
  CHECK_FALSE(run_op<ops::OneHot>({tensor::from<std::int64_t>({1}, {1}), tensor::scalar<std::int64_t>(2),
                                   tensor::from<float>({0, 1, 2}, {3})}).ok());
}
