// Unique: flattened sorted / first-occurrence order, along an axis, all four
// outputs against a reference built with std::map / by hand; bad axis.
#include <catch2/catch.hpp>
#include <map>

#include "kernels/cpu/unique.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("Unique of the flattened input, sorted and unsorted", "[misc]") {
  auto x = test::random_values<std::int32_t>(97, -6, 6, 61);
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> seen;  // value -> (first, count)
  std::vector<std::int32_t> order;                                      // first-occurrence order
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto [it, fresh] = seen.try_emplace(x[i], std::int64_t(i), 0);
    ++it->second.second;
    if (fresh) order.push_back(x[i]);
  }
  for (int sorted : {1, 0}) {
    std::vector<std::int32_t> y;
    if (sorted)
      for (auto& [v, _] : seen) y.push_back(v);
    else
      y = order;
    std::vector<std::int64_t> idx, cnt, inv;
    for (auto v : y) idx.push_back(seen[v].first), cnt.push_back(seen[v].second);
    for (auto v : x) inv.push_back(std::find(y.begin(), y.end(), v) - y.begin());
    auto r = test::run_op<ops::Unique>({tensor::from(x, {97})}, {test::attr("sorted", sorted)}, 4);
    REQUIRE(r.ok());
    test::require_close((*r)[0], y, 0, 0);
    test::require_close((*r)[1], idx, 0, 0);
    test::require_close((*r)[2], inv, 0, 0);
    test::require_close((*r)[3], cnt, 0, 0);
  }
}

TEST_CASE("Unique slices along an axis", "[misc]") {
  // rows 0 and 2 equal; sorted lexicographically: [0 1 2], [1 0 0]
  std::vector<float> x{1, 0, 0, 0, 1, 2, 1, 0, 0, 0, 1, 2};
  auto r = test::run_op<ops::Unique>({tensor::from(x, {4, 3})}, {test::attr("axis", 0)}, 4);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 3});
  test::require_close((*r)[0], std::vector<float>{0, 1, 2, 1, 0, 0}, 0, 0);
  test::require_close((*r)[1], std::vector<std::int64_t>{1, 0}, 0, 0);
  test::require_close((*r)[2], std::vector<std::int64_t>{1, 0, 1, 0}, 0, 0);
  test::require_close((*r)[3], std::vector<std::int64_t>{2, 2}, 0, 0);
  // Columns of the same matrix: column 1 and 2 differ, column 0 is [1 0 1 0].
  auto cols = test::run_op<ops::Unique>({tensor::from(x, {4, 3})}, {test::attr("axis", 1), test::attr("sorted", 0)});
  REQUIRE(cols.ok());
  CHECK((*cols)[0].shape() == extents{4, 3});
}

TEST_CASE("Unique rejects an out-of-range axis", "[misc]") {
  auto r = test::run_op<ops::Unique>({tensor::from(std::vector<float>{1, 2}, {2})}, {test::attr("axis", 1)});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("out of range") != std::string::npos);
}
