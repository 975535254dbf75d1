// SVMRegressor (and later SVMClassifier) against a direct evaluation of the
// spec's sums: every kernel type, odd sizes, one row and many, the linear
// mode, one-class; mismatched attributes fail at session creation.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/ml_kernels.hpp"
#include "onyx/core/thread_pool.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {

double kernel_value(const std::string& kind, const float* a, const float* b, std::int64_t n, double gamma, double coef0,
                    int degree) {
  double dot = 0, dist = 0;
  for (std::int64_t i = 0; i < n; ++i) dot += double(a[i]) * b[i], dist += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  if (kind == "LINEAR") return dot;
  if (kind == "POLY") return std::pow(gamma * dot + coef0, degree);
  if (kind == "RBF") return std::exp(-gamma * dist);
  return std::tanh(gamma * dot + coef0);
}

}  // namespace

TEST_CASE("SVMRegressor: every kernel against the direct sum", "[ml][svm]") {
  thread_pool pool(2);
  const std::int64_t features = 7, vectors = 23;
  auto sv = test::random_values<float>(vectors * features, -1, 1, 1);
  auto coef = test::random_values<float>(vectors, -2, 2, 2);
  for (const char* kind : {"LINEAR", "POLY", "RBF", "SIGMOID"})
    for (std::int64_t rows : {1, 41}) {
      auto x = test::random_values<float>(rows * features, -1, 1, 3);
      std::vector<float> expect;
      for (std::int64_t r = 0; r < rows; ++r) {
        double s = 0.3;
        for (std::int64_t j = 0; j < vectors; ++j)
          s += coef[static_cast<std::size_t>(j)] *
               kernel_value(kind, x.data() + r * features, sv.data() + j * features, features, 0.4, 0.5, 3);
        expect.push_back(static_cast<float>(s));
      }
      INFO(kind << " rows " << rows);
      auto r = test::run_op<ops::SVMRegressor>(
          {tensor::from(x, {rows, features})},
          {attr("kernel_type", std::string(kind)), attr("kernel_params", std::vector<float>{0.4f, 0.5f, 3}),
           attr("n_supports", vectors), attr("support_vectors", sv), attr("coefficients", coef),
           attr("rho", std::vector<float>{0.3f})},
          1, &pool);
      REQUIRE(r.ok());
      REQUIRE((*r)[0].shape() == extents{rows, 1});
      test::require_close((*r)[0], expect, 1e-5, 1e-5);
    }
}

TEST_CASE("SVMRegressor: linear mode, one-class, bad lengths", "[ml][svm]") {
  const tensor x = tensor::from(std::vector<double>{1, 2, -3, 0.5}, {2, 2});
  auto lin = test::run_op<ops::SVMRegressor>(
      {x}, {attr("coefficients", std::vector<float>{2, -1}), attr("rho", std::vector<float>{0.5f})});
  REQUIRE(lin.ok());
  test::require_close((*lin)[0], std::vector<float>{0.5f, -6.0f});
  auto one = test::run_op<ops::SVMRegressor>(
      {x}, {attr("coefficients", std::vector<float>{2, -1}), attr("rho", std::vector<float>{0.5f}),
            attr("one_class", 1)});
  REQUIRE(one.ok());
  test::require_close((*one)[0], std::vector<float>{1, -1});
  auto bad = test::run_op<ops::SVMRegressor>(
      {x}, {attr("kernel_type", std::string("RBF")), attr("n_supports", 2), attr("support_vectors", std::vector<float>{1, 2, 3}),
            attr("coefficients", std::vector<float>{1, 1}), attr("rho", std::vector<float>{0})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("support_vectors has 3 values"));
}
