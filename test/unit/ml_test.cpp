// ai.onnx.ml Binarizer, ArrayFeatureExtractor, Scaler, Normalizer, the linear
// models, Imputer, OneHotEncoder, FeatureVectorizer and CategoryMapper against
// hand-computed results and direct references;
// out-of-range feature indices fail.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/ml_kernels.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::sattr;

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

namespace {
}  // namespace

TEST_CASE("Scaler: (x - offset) * scale per column, one value broadcast, ints in", "[ml]") {
  auto r = test::run_op<ops::Scaler>({tensor::from(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3})},
                                     {attr("offset", std::vector<float>{1, 0, -1}), attr("scale", std::vector<float>{2, 0.5f, 1})});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::float32);
  test::require_close((*r)[0], std::vector<float>{0, 1, 4, 6, 2.5f, 7});
  auto b = test::run_op<ops::Scaler>({tensor::from(std::vector<std::int64_t>{1, 2, 3}, {3})},
                                     {attr("offset", std::vector<float>{1}), attr("scale", std::vector<float>{-1})});
  REQUIRE(b.ok());
  test::require_close((*b)[0], std::vector<float>{0, -1, -2});
  auto bad = test::run_op<ops::Scaler>({tensor::from(std::vector<float>{1, 2, 3, 4}, {2, 2})},
                                       {attr("scale", std::vector<float>{1, 2, 3})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("scale has 3 values for 2 columns"));
}

TEST_CASE("Normalizer: MAX, L1 and L2 per row; a zero row is copied", "[ml]") {
  const tensor x = tensor::from(std::vector<float>{3, -4, 1, 0, 0, 0}, {2, 3});
  auto run = [&](const char* norm) {
    auto r = test::run_op<ops::Normalizer>({x}, {attr("norm", std::string(norm))});
    REQUIRE(r.ok());
    return (*r)[0];
  };
  test::require_close(run("MAX"), std::vector<float>{1, -4.0f / 3, 1.0f / 3, 0, 0, 0});
  test::require_close(run("L1"), std::vector<float>{0.375f, -0.5f, 0.125f, 0, 0, 0});
  const float l2 = std::sqrt(26.0f);
  test::require_close(run("L2"), std::vector<float>{3 / l2, -4 / l2, 1 / l2, 0, 0, 0});
  auto i = test::run_op<ops::Normalizer>({tensor::from(std::vector<std::int32_t>{1, 3}, {2})}, {attr("norm", std::string("L1"))});
  REQUIRE(i.ok());
  test::require_close((*i)[0], std::vector<float>{0.25f, 0.75f});
}

TEST_CASE("LinearRegressor: X W^T + b for several targets, odd sizes, post transform", "[ml]") {
  const std::int64_t rows = 37, cols = 19, targets = 3;
  auto x = test::random_values<float>(rows * cols, -1, 1, 5);
  auto w = test::random_values<float>(targets * cols, -1, 1, 6);
  std::vector<float> b{0.5f, -0.25f, 1.0f};
  std::vector<float> expect, soft;
  for (std::int64_t r = 0; r < rows; ++r) {
    double s[3], m = -1e30, sum = 0;
    for (std::int64_t t = 0; t < targets; ++t) {
      s[t] = b[static_cast<std::size_t>(t)];
      for (std::int64_t c = 0; c < cols; ++c)
        s[t] += double(x[static_cast<std::size_t>(r * cols + c)]) * w[static_cast<std::size_t>(t * cols + c)];
      expect.push_back(static_cast<float>(s[t])), m = std::max(m, s[t]);
    }
    for (double v : s) sum += std::exp(v - m);
    for (double v : s) soft.push_back(static_cast<float>(std::exp(v - m) / sum));
  }
  std::vector<attribute> a{attr("coefficients", w), attr("intercepts", b), attr("targets", targets)};
  auto r = test::run_op<ops::LinearRegressor>({tensor::from(x, {rows, cols})}, a);
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{rows, targets});
  test::require_close((*r)[0], expect, 1e-5, 1e-5);
  a.push_back(attr("post_transform", std::string("SOFTMAX")));
  auto s = test::run_op<ops::LinearRegressor>({tensor::from(x, {rows, cols})}, a);
  REQUIRE(s.ok());
  test::require_close((*s)[0], soft, 1e-5, 1e-6);
}

TEST_CASE("LinearClassifier: labels from raw scores, SOFTMAX scores; the one-column case as ORT", "[ml]") {
  // Two rows, two features, three classes.
  const tensor x = tensor::from(std::vector<float>{1, 2, -1, 0.5f}, {2, 2});
  std::vector<attribute> a{attr("coefficients", std::vector<float>{1, 0, 0, 1, -1, -1}),
                           attr("intercepts", std::vector<float>{0, 0, 0.5f}),
                           attr("classlabels_ints", std::vector<std::int64_t>{7, 8, 9})};
  // Scores: row 0 (1, 2, -2.5) -> 8; row 1 (-1, 0.5, 1) -> 9.
  auto r = test::run_op<ops::LinearClassifier>({x}, a, 2);
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int64_t>{8, 9}, 0, 0);
  test::require_close((*r)[1], std::vector<float>{1, 2, -2.5f, -1, 0.5f, 1});
  a.push_back(attr("post_transform", std::string("SOFTMAX")));
  auto s = test::run_op<ops::LinearClassifier>({x}, a, 2);
  REQUIRE(s.ok());
  const double d0 = std::exp(-1.0) + 1 + std::exp(-4.5), d1 = std::exp(-2.0) + std::exp(-0.5) + 1;
  test::require_close((*s)[1], std::vector<float>{float(std::exp(-1.0) / d0), float(1 / d0), float(std::exp(-4.5) / d0),
                                                  float(std::exp(-2.0) / d1), float(std::exp(-0.5) / d1), float(1 / d1)});
  // One coefficient row, two string labels: label by score > 0, Z = (1 - s, s).
  auto b = test::run_op<ops::LinearClassifier>(
      {x}, {attr("coefficients", std::vector<float>{1, -1}), attr("intercepts", std::vector<float>{0.25f}),
            sattr("classlabels_strings", {"no", "yes"})}, 2);
  REQUIRE(b.ok());
  // Scores: -0.75, -1.25.
  CHECK((*b)[0].values<std::string>()[0] == "no");
  REQUIRE((*b)[1].shape() == extents{2, 2});
  test::require_close((*b)[1], std::vector<float>{1.75f, -0.75f, 2.25f, -1.25f});
}

TEST_CASE("Imputer: NaN or a value replaced per column, floats and ints", "[ml]") {
  const float nan = std::nanf("");
  auto r = test::run_op<ops::Imputer>({tensor::from(std::vector<float>{nan, 1, 2, nan, 0, nan}, {2, 3})},
                                      {attr("imputed_value_floats", std::vector<float>{7, 8, 9}),
                                       attr("replaced_value_float", nan)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<float>{7, 1, 2, 7, 0, 9}, 0, 0);
  auto z = test::run_op<ops::Imputer>({tensor::from(std::vector<double>{0, 1, 0, nan}, {2, 2})},
                                      {attr("imputed_value_floats", std::vector<float>{5})});
  REQUIRE(z.ok());
  test::require_close((*z)[0], std::vector<double>{5, 1, 5, std::nan("")}, 0, 0);
  auto i = test::run_op<ops::Imputer>({tensor::from(std::vector<std::int64_t>{-1, 3, 4, -1}, {2, 2})},
                                      {attr("imputed_value_int64s", std::vector<std::int64_t>{10, 20}),
                                       attr("replaced_value_int64", std::int64_t{-1})});
  REQUIRE(i.ok());
  test::require_close((*i)[0], std::vector<std::int64_t>{10, 3, 4, 20}, 0, 0);
  auto bad = test::run_op<ops::Imputer>({tensor::from(std::vector<float>{1, 2}, {1, 2})},
                                        {attr("imputed_value_int64s", std::vector<std::int64_t>{1})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("imputed_value_floats is empty"));
}

TEST_CASE("OneHotEncoder: strings and numbers, unknowns zero or an error", "[ml]") {
  auto s = test::run_op<ops::OneHotEncoder>({test::strings({"b", "z", "a"}, {3})}, {sattr("cats_strings", {"a", "b"})});
  REQUIRE(s.ok());
  REQUIRE((*s)[0].shape() == extents{3, 2});
  test::require_close((*s)[0], std::vector<float>{0, 1, 0, 0, 1, 0}, 0, 0);
  auto d = test::run_op<ops::OneHotEncoder>({tensor::from(std::vector<double>{3.0, 1.0}, {1, 2})},
                                            {attr("cats_int64s", std::vector<std::int64_t>{1, 2, 3})});
  REQUIRE(d.ok());
  REQUIRE((*d)[0].shape() == extents{1, 2, 3});
  test::require_close((*d)[0], std::vector<float>{0, 0, 1, 1, 0, 0}, 0, 0);
  auto bad = test::run_op<ops::OneHotEncoder>({tensor::from(std::vector<std::int64_t>{4}, {1})},
                                              {attr("cats_int64s", std::vector<std::int64_t>{1}), attr("zeros", 0)});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("no category"));
}

TEST_CASE("FeatureVectorizer: inputs cut or padded to their dimensions, mixed types", "[ml]") {
  auto r = test::run_op<ops::FeatureVectorizer>(
      {tensor::from(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}, {2, 3}), tensor::from(std::vector<double>{0.5, 1.5}, {2, 1})},
      {attr("inputdimensions", std::vector<std::int64_t>{2, 3})});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{2, 5});
  test::require_close((*r)[0], std::vector<float>{1, 2, 0.5f, 0, 0, 4, 5, 1.5f, 0, 0}, 0, 0);
}

TEST_CASE("CategoryMapper: both directions with defaults", "[ml]") {
  std::vector<attribute> a{sattr("cats_strings", {"cat", "dog"}), attr("cats_int64s", std::vector<std::int64_t>{1, 2}),
                           attr("default_int64", std::int64_t{-9}), attr("default_string", std::string("?"))};
  auto r = test::run_op<ops::CategoryMapper>({test::strings({"dog", "cow", "cat"}, {3})}, a);
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int64_t>{2, -9, 1}, 0, 0);
  auto b = test::run_op<ops::CategoryMapper>({tensor::from(std::vector<std::int64_t>{1, 5}, {2})}, a);
  REQUIRE(b.ok());
  CHECK((*b)[0].values<std::string>()[0] == "cat");
  CHECK((*b)[0].values<std::string>()[1] == "?");
}
