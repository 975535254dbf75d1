// Einsum: matmul, batched and broadcast (ellipsis) matmul, transpose, trace,
// diagonal, sums, outer product, three operands, implicit output, against
// plain loops; malformed equations.
#include <catch2/catch.hpp>

#include "kernels/cpu/einsum.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
result<std::vector<tensor>> einsum(const std::string& eq, std::vector<tensor> in) {
  thread_pool pool(2);
  return test::run_op<ops::Einsum>(in, {test::attr("equation", eq)}, 1, &pool);
}
}  // namespace

TEST_CASE("Einsum: matmul, implicit output, three operands", "[misc]") {
  const int I = 5, J = 7, K = 3, L = 4;
  auto a = test::random_values<double>(I * J, -1, 1, 41), b = test::random_values<double>(J * K, -1, 1, 42),
       d = test::random_values<double>(K * L, -1, 1, 43);
  std::vector<double> ab(I * K, 0), abd(I * L, 0);
  for (int i = 0; i < I; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < J; ++j) ab[i * K + k] += a[i * J + j] * b[j * K + k];
  for (int i = 0; i < I; ++i)
    for (int l = 0; l < L; ++l)
      for (int k = 0; k < K; ++k) abd[i * L + l] += ab[i * K + k] * d[k * L + l];
  auto ta = tensor::from(a, {I, J}), tb = tensor::from(b, {J, K}), td = tensor::from(d, {K, L});
  for (const char* eq : {"ij,jk->ik", "ij,jk", " i j , j k -> i k"}) {
    auto r = einsum(eq, {ta, tb});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{I, K});
    test::require_close((*r)[0], ab, 1e-12, 1e-12);
  }
  auto r3 = einsum("ij,jk,kl->il", {ta, tb, td});
  REQUIRE(r3.ok());
  test::require_close((*r3)[0], abd, 1e-12, 1e-12);
}

TEST_CASE("Einsum: batched matmul with broadcast ellipsis dims", "[misc]") {
  // a [2, 1, 3, 4], b [3, 4, 5] -> [2, 3, 3, 5]
  auto a = test::random_values<float>(2 * 3 * 4, -1, 1, 44), b = test::random_values<float>(3 * 4 * 5, -1, 1, 45);
  std::vector<float> want(2 * 3 * 3 * 5, 0);
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 3; ++q)
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 5; ++k) {
          double s = 0;
          for (int j = 0; j < 4; ++j) s += double(a[(p * 3 + i) * 4 + j]) * b[(q * 4 + j) * 5 + k];
          want[((p * 3 + q) * 3 + i) * 5 + k] = float(s);
        }
  auto r = einsum("...ij,...jk->...ik", {tensor::from(a, {2, 1, 3, 4}), tensor::from(b, {3, 4, 5})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 3, 3, 5});
  test::require_close((*r)[0], want, 1e-5, 1e-6);
}

TEST_CASE("Einsum: transpose, trace, diagonal, sums, outer product", "[misc]") {
  auto m = test::random_values<std::int64_t>(4 * 4, -9, 9, 46);
  auto tm = tensor::from(m, {4, 4});
  std::vector<std::int64_t> t(16), diag(4), rows(4, 0);
  std::int64_t trace = 0, all = 0;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      t[j * 4 + i] = m[i * 4 + j];
      rows[i] += m[i * 4 + j];
      all += m[i * 4 + j];
    }
    diag[i] = m[i * 5];
    trace += m[i * 5];
  }
  auto check = [&](const char* eq, const std::vector<std::int64_t>& want, extents shape) {
    INFO(eq);
    auto r = einsum(eq, {tm});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == shape);
    test::require_close((*r)[0], want, 0, 0);
  };
  check("ij->ji", t, {4, 4});
  check("ii", {trace}, {});
  check("ii->i", diag, {4});
  check("ij->i", rows, {4});
  check("ij->", {all}, {});
  check("ji", t, {4, 4});  // implicit output sorts labels: "ij" of the transposed view
  auto u = std::vector<std::int64_t>{1, 2, 3}, v = std::vector<std::int64_t>{4, 5};
  auto r = einsum("i,j", {tensor::from(u, {3}), tensor::from(v, {2})});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int64_t>{4, 5, 8, 10, 12, 15}, 0, 0);
}

TEST_CASE("Einsum rejects malformed equations and mismatched sizes", "[misc]") {
  auto a = tensor::from(std::vector<float>(6, 1), {2, 3});
  auto rank = einsum("ijk->i", {a});
  REQUIRE(!rank.ok());
  CHECK(rank.error().message().find("rank") != std::string::npos);
  auto terms = einsum("ij,jk->ik", {a});
  REQUIRE(!terms.ok());
  CHECK(terms.error().message().find("terms") != std::string::npos);
  auto sizes = einsum("ij,ij->i", {a, tensor::from(std::vector<float>(6, 1), {3, 2})});
  REQUIRE(!sizes.ok());
  CHECK(sizes.error().message().find("sizes") != std::string::npos);
  auto label = einsum("ij->z", {a});
  REQUIRE(!label.ok());
  CHECK(label.error().message().find("'z'") != std::string::npos);
}
