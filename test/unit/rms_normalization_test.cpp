// RMSNormalization against a scalar reference over several axes, and a
// scale that does not broadcast.
#include <catch2/catch.hpp>

#include "kernels/cpu/rms_normalization.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

TEST_CASE("RMSNormalization: rows over trailing axes", "[rms_normalization]") {
  const extents shape{3, 5, 7};
  auto x = test::random_values<float>(105, -2, 2, 11);
  for (int axis : {-1, 1, 0}) {
    const std::int64_t len = axis == -1 ? 7 : axis == 1 ? 35 : 105, rows = 105 / len;
    auto scale = test::random_values<float>(7, 0.5, 1.5, 12);  // broadcast from the last axis
    std::vector<float> want(105);
    for (std::int64_t r = 0; r < rows; ++r) {
      double sq = 0;
      for (std::int64_t j = 0; j < len; ++j) sq += double(x[r * len + j]) * x[r * len + j];
      const double inv = 1 / std::sqrt(sq / len + 1e-5);
      for (std::int64_t j = 0; j < len; ++j) want[r * len + j] = float(x[r * len + j] * inv * scale[j % 7]);
    }
    auto out = test::run_op<ops::RMSNormalization>({tensor::from(x, shape), tensor::from(scale, {7})},
                                                   {attr("axis", axis)});
    REQUIRE(out.ok());
    test::require_close(out.value()[0], want, 1e-5, 1e-6);
  }
  auto bad = test::run_op<ops::RMSNormalization>(
      {tensor::from(x, shape), tensor::from(test::random_values<float>(6), {6})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("does not broadcast"));
}
