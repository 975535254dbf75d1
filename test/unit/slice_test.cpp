#include "kernels/cpu/slice.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::run_op;
using onyx::test::i64;

TEST_CASE("Slice: steps, negative bounds and clamping against a scalar reference") {
  extents s{5, 7, 9};
  auto v = test::random_values<float>(element_count(s), -1, 1, 8);
  auto x = tensor::from(v, s);
  struct one {
    std::int64_t start, end, step;
  };
  // Per axis 0,1,2.
  std::vector<std::vector<one>> cases = {{{0, 5, 1}, {1, 6, 2}, {8, 0, -3}},
                                         {{-1, -100, -1}, {-3, 100, 1}, {0, 9, 4}},
                                         {{2, 2, 1}, {0, 7, 1}, {0, 9, 1}},
                                         {{100, -100, -2}, {6, -8, -1}, {-9, 9, 2}}};
  for (auto& cs : cases) {
    auto r = run_op<ops::Slice>({x, i64({cs[0].start, cs[1].start, cs[2].start}), i64({cs[0].end, cs[1].end, cs[2].end}),
                                 i64({0, 1, 2}), i64({cs[0].step, cs[1].step, cs[2].step})});
    REQUIRE(r.ok());
    // Reference: python-style index lists per axis.
    std::vector<std::vector<std::int64_t>> idx(3);
    for (int k = 0; k < 3; ++k) {
      auto rs = ops::resolve_slice(cs[k].start, cs[k].end, cs[k].step, s[k]);
      for (std::int64_t i = rs.start; cs[k].step > 0 ? i < std::min(s[k], cs[k].end < 0 ? cs[k].end + s[k] : cs[k].end)
                                                     : i > std::max<std::int64_t>(-1, cs[k].end < 0 ? cs[k].end + s[k] : cs[k].end);
           i += cs[k].step)
        idx[k].push_back(i);
    }
    std::vector<float> expected;
    for (auto a : idx[0])
      for (auto b : idx[1])
        for (auto c : idx[2]) expected.push_back(v[(a * 7 + b) * 9 + c]);
    CHECK((*r)[0].shape() == extents{(std::int64_t)idx[0].size(), (std::int64_t)idx[1].size(), (std::int64_t)idx[2].size()});
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("Slice: axes omitted, negative axes, zero step fails") {
  auto x = tensor::from<std::int32_t>({0, 1, 2, 3, 4, 5}, {2, 3});
  auto r = run_op<ops::Slice>({x, i64({1}), i64({2})});
  REQUIRE(r.ok());
  test::require_close<std::int32_t>((*r)[0], {3, 4, 5}, 0, 0);
  auto rn = run_op<ops::Slice>({x, i64({1}), i64({3}), i64({-1})});
  REQUIRE(rn.ok());
  test::require_close<std::int32_t>((*rn)[0], {1, 2, 4, 5}, 0, 0);
  CHECK_FALSE(run_op<ops::Slice>({x, i64({0}), i64({1}), i64({0}), i64({0})}).ok());
  CHECK_FALSE(run_op<ops::Slice>({x, i64({0}), i64({1}), i64({2})}).ok());
}
