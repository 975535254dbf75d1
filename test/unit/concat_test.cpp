#include "kernels/cpu/concat.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("Concat: every axis of rank-3 inputs with odd sizes") {
  extents a{3, 5, 7};
  for (int axis = -3; axis < 3; ++axis) {
    int ax = axis < 0 ? axis + 3 : axis;
    extents b = a, c3 = a;
    b[ax] = 2;
    c3[ax] = 1;
    auto va = test::random_values<float>(element_count(a), -1, 1, 1);
    auto vb = test::random_values<float>(element_count(b), -1, 1, 2);
    auto vc = test::random_values<float>(element_count(c3), -1, 1, 3);
    auto r = run_op<ops::Concat>({tensor::from(va, a), tensor::from(vb, b), tensor::from(vc, c3)}, {attr("axis", axis)});
    REQUIRE(r.ok());
    extents o = a;
    o[ax] = a[ax] + b[ax] + c3[ax];
    REQUIRE((*r)[0].shape() == o);
    // Reference: walk the output, find which input holds the coordinate.
    std::vector<float> expected;
    std::vector<std::int64_t> idx(3);
    for (std::int64_t i = 0; i < element_count(o); ++i) {
      std::int64_t rest = i;
      for (int k = 2; k >= 0; --k) idx[k] = rest % o[k], rest /= o[k];
      std::int64_t p = idx[ax];
      const std::vector<float>* src = &va;
      extents s = a;
      if (p >= a[ax]) p -= a[ax], src = &vb, s = b;
      if (src == &vb && p >= b[ax]) p -= b[ax], src = &vc, s = c3;
      auto j = idx;
      j[ax] = p;
      expected.push_back((*src)[(j[0] * s[1] + j[1]) * s[2] + j[2]]);
    }
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("Concat: empty inputs, strings, bool") {
  auto r = run_op<ops::Concat>({tensor::from<std::int64_t>({1, 2}, {2}), tensor::zeros(dtype::int64, {0}),
                                tensor::from<std::int64_t>({3}, {1})},
                               {attr("axis", 0)});
  REQUIRE(r.ok());
  test::require_close<std::int64_t>((*r)[0], {1, 2, 3}, 0, 0);
  auto s = tensor::zeros(dtype::string, {1});
  s.data<std::string>()[0] = "a";
  auto rs = run_op<ops::Concat>({s, s}, {attr("axis", 0)});
  REQUIRE(rs.ok());
  CHECK((*rs)[0].data<std::string>()[1] == "a");
  auto rb = run_op<ops::Concat>({tensor::from<bool>({true}, {1}), tensor::from<bool>({false}, {1})}, {attr("axis", 0)});
  REQUIRE(rb.ok());
  CHECK((*rb)[0].data<bool>()[0]);
  CHECK_FALSE((*rb)[0].data<bool>()[1]);
}

TEST_CASE("Concat: mismatched shapes or types fail") {
  auto a = tensor::zeros(dtype::float32, {2, 3}), b = tensor::zeros(dtype::float32, {2, 4});
  auto r = run_op<ops::Concat>({a, b}, {attr("axis", 0)});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("dim 1") != std::string::npos);
  CHECK(run_op<ops::Concat>({a, b}, {attr("axis", 1)}).ok());
  CHECK_FALSE(run_op<ops::Concat>({a, tensor::zeros(dtype::float64, {2, 3})}, {attr("axis", 0)}).ok());
  CHECK_FALSE(run_op<ops::Concat>({a, a}, {attr("axis", 2)}).ok());
}
