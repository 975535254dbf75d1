// Det against cofactor expansion (a different algorithm from the kernel's
// elimination), over batches, singular and permuted matrices, and bad shapes.
#include <catch2/catch.hpp>

#include "kernels/cpu/det.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
/// Laplace expansion along the first row.
double cofactor_det(const std::vector<double>& a, std::int64_t n) {
  if (n == 1) return a[0];
  double det = 0;
  for (std::int64_t col = 0; col < n; ++col) {
    std::vector<double> minor;
    for (std::int64_t i = 1; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (j != col) minor.push_back(a[i * n + j]);
    det += (col % 2 ? -1.0 : 1.0) * a[col] * cofactor_det(minor, n - 1);
  }
  return det;
}
}  // namespace

TEST_CASE("Det of batches of square matrices", "[misc]") {
  for (std::int64_t n : {1, 2, 3, 5}) {
    const extents shape{2, 3, n, n};
    auto x = test::random_values<double>(static_cast<std::size_t>(6 * n * n), -2, 2, static_cast<unsigned>(40 + n));
    std::vector<double> expect;
    for (std::int64_t m = 0; m < 6; ++m)
      expect.push_back(cofactor_det(std::vector<double>(x.begin() + m * n * n, x.begin() + (m + 1) * n * n), n));
    auto r = test::run_op<ops::Det>({tensor::from(x, shape)});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{2, 3});
    test::require_close((*r)[0], expect, 1e-12, 1e-12);
    std::vector<float> xf(x.begin(), x.end());
    auto rf = test::run_op<ops::Det>({tensor::from(xf, shape)});
    REQUIRE(rf.ok());
    test::require_close((*rf)[0], std::vector<float>(expect.begin(), expect.end()), 1e-5, 1e-5);
  }
}

TEST_CASE("Det: a single matrix, singular and row-swapped ones", "[misc]") {
  // The second row is twice the first; the third needs a pivot swap.
  auto singular = tensor::from(std::vector<float>{1, 2, 3, 2, 4, 6, 0, 1, 5}, {3, 3});
  auto swapped = tensor::from(std::vector<float>{0, 1, 1, 0}, {2, 2});
  auto s = test::run_op<ops::Det>({singular});
  auto p = test::run_op<ops::Det>({swapped});
  REQUIRE((s.ok() && p.ok()));
  CHECK((*s)[0].shape() == extents{});
  CHECK((*s)[0].values<float>()[0] == 0.0f);
  CHECK((*p)[0].values<float>()[0] == -1.0f);
}

TEST_CASE("Det rejects non-square matrices, rank < 2 and integers", "[misc]") {
  auto r = test::run_op<ops::Det>({tensor::zeros(dtype::float32, {2, 3})});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("square"));
  CHECK_FALSE(test::run_op<ops::Det>({tensor::zeros(dtype::float32, {4})}).ok());
  CHECK_FALSE(test::run_op<ops::Det>({tensor::zeros(dtype::int32, {2, 2})}).ok());
}
