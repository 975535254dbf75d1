#include "kernels/cpu/depth_to_space.hpp"
#include "kernels/cpu/space_to_depth.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("DepthToSpace DCR/CRD against the spec's index formulas; SpaceToDepth inverts DCR") {
  const std::int64_t n = 2, b = 2, cc = 3, h = 3, w = 5, ch = cc * b * b;
  auto v = test::random_values<float>(n * ch * h * w, -1, 1, 21);
  auto x = tensor::from(v, {n, ch, h, w});
  for (std::string mode : {"DCR", "CRD"}) {
    auto r = run_op<ops::DepthToSpace>({x}, {attr("blocksize", b), attr("mode", mode)});
    REQUIRE(r.ok());
    REQUIRE((*r)[0].shape() == extents{n, cc, h * b, w * b});
    std::vector<float> expected;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t c = 0; c < cc; ++c)
        for (std::int64_t y = 0; y < h * b; ++y)
          for (std::int64_t z = 0; z < w * b; ++z) {
            std::int64_t by = y % b, bz = z % b;
            std::int64_t src_c = mode == "DCR" ? (by * b + bz) * cc + c : c * b * b + by * b + bz;
            expected.push_back(v[((i * ch + src_c) * h + y / b) * w + z / b]);
          }
    test::require_close((*r)[0], expected, 0, 0);
    if (mode == "DCR") {
      auto back = run_op<ops::SpaceToDepth>({(*r)[0]}, {attr("blocksize", b)});
      REQUIRE(back.ok());
      CHECK((*back)[0].shape() == x.shape());
      test::require_close((*back)[0], v, 0, 0);
    }
  }
}

TEST_CASE("DepthToSpace/SpaceToDepth: indivisible dims fail") {
  CHECK_FALSE(run_op<ops::DepthToSpace>({tensor::zeros(dtype::float32, {1, 6, 2, 2})}, {attr("blocksize", 2)}).ok());
  CHECK_FALSE(run_op<ops::SpaceToDepth>({tensor::zeros(dtype::float32, {1, 1, 3, 2})}, {attr("blocksize", 2)}).ok());
  CHECK_FALSE(run_op<ops::DepthToSpace>({tensor::zeros(dtype::float32, {4, 2, 2})}, {attr("blocksize", 2)}).ok());
}
