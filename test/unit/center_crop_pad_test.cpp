// CenterCropPad: crop, pad and both at once on chosen axes, against an
// index-by-index reference; a shape/axes length mismatch.
#include <catch2/catch.hpp>

#include "kernels/cpu/center_crop_pad.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("CenterCropPad crops and pads around the centre", "[misc]") {
  const int H = 7, W = 4, C = 3;
  auto x = test::random_values<std::int32_t>(H * W * C, -50, 50, 121);
  // HWC: crop H 7 -> 4 (start 1), pad W 4 -> 7 (1 before, 2 after).
  auto r = test::run_op<ops::CenterCropPad>({tensor::from(x, {H, W, C}), tensor::from<std::int64_t>({4, 7}, {2})},
                                            {test::attr("axes", std::vector<std::int64_t>{0, -2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{4, 7, C});
  std::vector<std::int32_t> want;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 7; ++j)
      for (int k = 0; k < C; ++k) {
        int si = i + 1, sj = j - 1;
        want.push_back(sj >= 0 && sj < W ? x[(si * W + sj) * C + k] : 0);
      }
  test::require_close((*r)[0], want, 0, 0);
}

TEST_CASE("CenterCropPad rejects a shape that does not match the axes", "[misc]") {
  auto r = test::run_op<ops::CenterCropPad>({tensor::from(std::vector<float>(6, 0), {2, 3}),
                                             tensor::from<std::int64_t>({1, 2, 3}, {3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("3 values for 2 axes") != std::string::npos);
}
