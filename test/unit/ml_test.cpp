// ai.onnx.ml Binarizer and ArrayFeatureExtractor against direct references;
// out-of-range feature indices fail.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/ml_kernels.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

TEST_CASE("Binarizer: 1 above the threshold, 0 at or below it", "[ml]") {
  auto x = test::random_values<double>(41, -2, 2, 111);
  x[3] = 0.25;  // exactly the threshold: 0
  auto r = test::run_op<ops::Binarizer>({tensor::from(x, {41})}, {attr("threshold", 0.25f)});
  REQUIRE(r.ok());
  std::vector<double> expect;
  for (double v : x) expect.push_back(v > 0.25 ? 1.0 : 0.0);
  test::require_close((*r)[0], expect, 0, 0);
  auto ri = test::run_op<ops::Binarizer>({tensor::from(std::vector<std::int32_t>{-3, 0, 1, 7}, {4})});
  REQUIRE(ri.ok());
  test::require_close((*ri)[0], std::vector<std::int32_t>{0, 0, 1, 1}, 0, 0);
}

TEST_CASE("ArrayFeatureExtractor picks last-axis entries; a vector gives one row", "[ml]") {
  std::vector<float> x(2 * 3 * 5);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto r = test::run_op<ops::ArrayFeatureExtractor>(
      {tensor::from(x, {2, 3, 5}), tensor::from(std::vector<std::int64_t>{4, 0, 4}, {3})});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{2, 3, 3});
  std::vector<float> expect;
  for (int row = 0; row < 6; ++row)
    for (int j : {4, 0, 4}) expect.push_back(static_cast<float>(row * 5 + j));
  test::require_close((*r)[0], expect, 0, 0);

  auto v = test::run_op<ops::ArrayFeatureExtractor>(
      {test::strings({"a", "b", "c"}, {3}), tensor::from(std::vector<std::int64_t>{2, 1}, {1, 2})});
  REQUIRE(v.ok());
  REQUIRE((*v)[0].shape() == extents{1, 2});
  CHECK((*v)[0].values<std::string>()[0] == "c");
  CHECK((*v)[0].values<std::string>()[1] == "b");

  auto bad = test::run_op<ops::ArrayFeatureExtractor>(
      {tensor::from(x, {2, 3, 5}), tensor::from(std::vector<std::int64_t>{1, 5}, {2})});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == errc::out_of_range);
  CHECK_THAT(bad.error().message(), Catch::Contains("Y[1] = 5"));
}
