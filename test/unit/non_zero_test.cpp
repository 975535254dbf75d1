#include "kernels/cpu/non_zero.hpp"
#include "kernels/cpu/top_k.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("NonZero: coordinates in row-major order, allocated by the kernel") {
  auto x = tensor::from<float>({0, 1.5f, 0, -2, 0, 0, 3, 0}, {2, 4});
  auto r = run_op<ops::NonZero>({x});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 3});
  test::require_close<std::int64_t>((*r)[0], {0, 0, 1, 1, 3, 2}, 0, 0);
  auto b = run_op<ops::NonZero>({tensor::from<bool>({false, false}, {2})});
  REQUIRE(b.ok());
  CHECK((*b)[0].shape() == extents{1, 0});
  CHECK_FALSE(run_op<ops::NonZero>({tensor::zeros(dtype::string, {2})}).ok());
}

TEST_CASE("TopK: largest/smallest on every axis, ties keep the lower index") {
  extents s{3, 5, 4};
  std::vector<std::int32_t> v(60);
  std::mt19937 gen(3);
  for (auto& e : v) e = static_cast<std::int32_t>(gen() % 7);
  auto x = tensor::from(v, s);
  for (int axis = 0; axis < 3; ++axis)
    for (int largest : {0, 1}) {
      const std::int64_t k = 2;
      auto r = run_op<ops::TopK>({x, tensor::from<std::int64_t>({k}, {1})}, {attr("axis", axis), attr("largest", largest)}, 2);
      REQUIRE(r.ok());
      extents o = s;
      o[axis] = k;
      REQUIRE((*r)[0].shape() == o);
      std::int64_t outer = 1, inner = 1;
      for (int d = 0; d < axis; ++d) outer *= s[d];
      for (int d = axis + 1; d < 3; ++d) inner *= s[d];
      std::vector<std::int32_t> ev(element_count(o));
      std::vector<std::int64_t> ei(element_count(o));
      for (std::int64_t a = 0; a < outer; ++a)
        for (std::int64_t j = 0; j < inner; ++j) {
          std::vector<std::pair<std::int32_t, std::int64_t>> line;
          for (std::int64_t i = 0; i < s[axis]; ++i) line.push_back({v[(a * s[axis] + i) * inner + j], i});
          std::stable_sort(line.begin(), line.end(), [&](auto& p, auto& q) { return largest ? p.first > q.first : p.first < q.first; });
          for (std::int64_t i = 0; i < k; ++i) {
            ev[(a * k + i) * inner + j] = line[i].first;
            ei[(a * k + i) * inner + j] = line[i].second;
          }
        }
      test::require_close((*r)[0], ev, 0, 0);
      test::require_close((*r)[1], ei, 0, 0);
    }
}

TEST_CASE("TopK: k larger than the axis fails") {
  auto x = tensor::zeros(dtype::float32, {3});
  CHECK_FALSE(run_op<ops::TopK>({x, tensor::from<std::int64_t>({4}, {1})}, {}, 2).ok());
}
