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
using onyx::test::sattr;

namespace {

double kernel_value(const std::string& kind, const float* a, const float* b, std::int64_t n, double gamma, double coef0,
                    int degree) {
  double dot = 0, dist = 0;
  for (std::int64_t i = 0; i < n; ++i)
    dot += double(a[i]) * b[i], dist += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
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
  auto one = test::run_op<ops::SVMRegressor>({x}, {attr("coefficients", std::vector<float>{2, -1}),
                                                   attr("rho", std::vector<float>{0.5f}), attr("one_class", 1)});
  REQUIRE(one.ok());
  test::require_close((*one)[0], std::vector<float>{1, -1});
  auto bad = test::run_op<ops::SVMRegressor>(
      {x}, {attr("kernel_type", std::string("RBF")), attr("n_supports", 2),
            attr("support_vectors", std::vector<float>{1, 2, 3}), attr("coefficients", std::vector<float>{1, 1}),
            attr("rho", std::vector<float>{0})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("support_vectors has 3 values"));
}

namespace {
}  // namespace

TEST_CASE("SVMClassifier: one-vs-one votes and pairwise scores, 3 classes, RBF", "[ml][svm]") {
  thread_pool pool(2);
  const std::int64_t features = 5, rows = 29;
  const std::vector<std::int64_t> per_class{3, 4, 2};
  const std::int64_t total = 9;
  auto sv = test::random_values<float>(total * features, -1, 1, 11);
  auto coef = test::random_values<float>(2 * total, -2, 2, 12);
  std::vector<float> rho{0.1f, -0.2f, 0.3f};
  auto x = test::random_values<float>(rows * features, -1, 1, 13);
  std::vector<float> expect_z;
  std::vector<std::int64_t> expect_y;
  const std::int64_t start[3] = {0, 3, 7};
  for (std::int64_t r = 0; r < rows; ++r) {
    double kv[9];
    for (std::int64_t j = 0; j < total; ++j)
      kv[j] = kernel_value("RBF", x.data() + r * features, sv.data() + j * features, features, 0.7, 0, 0);
    int votes[3] = {0, 0, 0}, idx = 0;
    for (int i = 0; i < 2; ++i)
      for (int j = i + 1; j < 3; ++j, ++idx) {
        double s = rho[static_cast<std::size_t>(idx)];
        for (std::int64_t m = 0; m < per_class[static_cast<std::size_t>(i)]; ++m)
          s += coef[static_cast<std::size_t>((j - 1) * total + start[i] + m)] * kv[start[i] + m];
        for (std::int64_t m = 0; m < per_class[static_cast<std::size_t>(j)]; ++m)
          s += coef[static_cast<std::size_t>(i * total + start[j] + m)] * kv[start[j] + m];
        expect_z.push_back(static_cast<float>(s));
        ++votes[s > 0 ? i : j];
      }
    const int best = votes[1] > votes[0] ? (votes[2] > votes[1] ? 2 : 1) : (votes[2] > votes[0] ? 2 : 0);
    expect_y.push_back(100 + best);
  }
  auto r = test::run_op<ops::SVMClassifier>(
      {tensor::from(x, {rows, features})},
      {attr("kernel_type", std::string("RBF")), attr("kernel_params", std::vector<float>{0.7f, 0, 0}),
       attr("vectors_per_class", per_class), attr("support_vectors", sv), attr("coefficients", coef), attr("rho", rho),
       attr("classlabels_ints", std::vector<std::int64_t>{100, 101, 102})},
      2, &pool);
  REQUIRE(r.ok());
  test::require_close((*r)[0], expect_y, 0, 0);
  REQUIRE((*r)[1].shape() == extents{rows, 3});
  test::require_close((*r)[1], expect_z, 1e-5, 1e-5);
}

TEST_CASE("SVMClassifier: two classes, with and without Platt probabilities; liblinear mode", "[ml][svm]") {
  // One support vector per class, linear kernel: s = c0 * (x.v0) + c1 * (x.v1) + rho.
  std::vector<attribute> a{attr("kernel_type", std::string("LINEAR")),
                           attr("vectors_per_class", std::vector<std::int64_t>{1, 1}),
                           attr("support_vectors", std::vector<float>{1, 0, 0, 1}),
                           attr("coefficients", std::vector<float>{1, -1}),
                           attr("rho", std::vector<float>{0.5f}),
                           sattr("classlabels_strings", {"neg", "pos"})};
  const tensor x = tensor::from(std::vector<float>{1, 3, 2, 0}, {2, 2});
  // Scores: 1 - 3 + 0.5 = -1.5 (votes class 1), 2 - 0 + 0.5 = 2.5 (class 0).
  auto r = test::run_op<ops::SVMClassifier>({x}, a, 2);
  REQUIRE(r.ok());
  CHECK((*r)[0].values<std::string>()[0] == "pos");
  CHECK((*r)[0].values<std::string>()[1] == "neg");
  test::require_close((*r)[1], std::vector<float>{1.5f, -1.5f, -2.5f, 2.5f});
  // Platt: p(class 0 over 1) = 1 - logistic(A s + B), the coupling of two
  // classes gives (p, 1 - p) (to its 0.0025 stopping tolerance).
  a.push_back(attr("prob_a", std::vector<float>{-2.0f}));
  a.push_back(attr("prob_b", std::vector<float>{0.1f}));
  auto p = test::run_op<ops::SVMClassifier>({x}, a, 2);
  REQUIRE(p.ok());
  for (int i = 0; i < 2; ++i) {
    const double s = i == 0 ? -1.5 : 2.5;
    const double p0 = 1 - 1 / (1 + std::exp(-(-2.0 * s + 0.1)));
    CHECK((*p)[1].data<float>()[2 * i] == Approx(p0).margin(3e-3));
    CHECK((*p)[1].data<float>()[2 * i + 1] == Approx(1 - p0).margin(3e-3));
  }
  // liblinear mode: Z = X W^T + rho[0] per class, label of the best score.
  auto l = test::run_op<ops::SVMClassifier>(
      {x},
      {attr("coefficients", std::vector<float>{1, 0, 0, 1, -1, 1}), attr("rho", std::vector<float>{0.25f}),
       attr("classlabels_ints", std::vector<std::int64_t>{5, 6, 7})},
      2);
  REQUIRE(l.ok());
  test::require_close((*l)[1], std::vector<float>{1.25f, 3.25f, 2.25f, 2.25f, 0.25f, -1.75f});
  test::require_close((*l)[0], std::vector<std::int64_t>{6, 5}, 0, 0);
}
