#include "kernels/cpu/arg_max.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {
// Reference: the first (or last) index of the extreme along `axis`.
std::vector<std::int64_t> reference(const std::vector<int>& x, const extents& s, int axis, bool max, bool last) {
  std::int64_t outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k) outer *= s[k];
  for (std::size_t k = axis + 1; k < s.size(); ++k) inner *= s[k];
  std::vector<std::int64_t> out;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < inner; ++j) {
      std::int64_t best = 0;
      for (std::int64_t i = 0; i < s[axis]; ++i) {
        int v = x[(o * s[axis] + i) * inner + j], b = x[(o * s[axis] + best) * inner + j];
        bool better = max ? (last ? v >= b : v > b) : (last ? v <= b : v < b);
        if (better) best = i;
      }
      out.push_back(best);
    }
  return out;
}
}  // namespace

TEST_CASE("ArgMax/ArgMin: every axis, ties, keepdims") {
  extents s{3, 4, 5};
  std::vector<int> x(60);
  std::mt19937 gen(11);
  for (auto& v : x) v = static_cast<int>(gen() % 5);  // many ties
  for (int axis = 0; axis < 3; ++axis)
    for (int last : {0, 1})
      for (int keep : {0, 1}) {
        std::vector<attribute> a{attr("axis", axis - 3), attr("select_last_index", last), attr("keepdims", keep)};
        auto mx = run_op<ops::ArgMax>({tensor::from(x, s)}, a);
        auto mn = run_op<ops::ArgMin>({tensor::from(x, s)}, a);
        REQUIRE(mx.ok());
        REQUIRE(mn.ok());
        CHECK((*mx)[0].rank() == (keep ? 3u : 2u));
        test::require_close((*mx)[0], reference(x, s, axis, true, last), 0, 0);
        test::require_close((*mn)[0], reference(x, s, axis, false, last), 0, 0);
      }
}

TEST_CASE("ArgMax: float input, bad axis fails") {
  auto r = run_op<ops::ArgMax>({tensor::from<float>({0.5f, 3.f, -1.f, 3.f}, {4})}, {attr("keepdims", 0)});
  REQUIRE(r.ok());
  CHECK((*r)[0].data<std::int64_t>()[0] == 1);
  CHECK_FALSE(run_op<ops::ArgMax>({tensor::zeros(dtype::float32, {2})}, {attr("axis", 1)}).ok());
  CHECK_FALSE(run_op<ops::ArgMax>({tensor::zeros(dtype::string, {2})}).ok());
}
