#include "kernels/cpu/split.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("Split: by sizes, equal parts and num_outputs, on an inner axis") {
  extents s{3, 7, 2};
  auto v = test::random_values<float>(element_count(s), -1, 1, 6);
  auto x = tensor::from(v, s);
  auto check = [&](const std::vector<tensor>& outs, const std::vector<std::int64_t>& sizes) {
    std::int64_t at = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      REQUIRE(outs[i].shape() == extents{3, sizes[i], 2});
      std::vector<float> expected;
      for (std::int64_t a = 0; a < 3; ++a)
        for (std::int64_t b = at; b < at + sizes[i]; ++b)
          for (std::int64_t c = 0; c < 2; ++c) expected.push_back(v[(a * 7 + b) * 2 + c]);
      test::require_close(outs[i], expected, 0, 0);
      at += sizes[i];
    }
  };
  auto r = run_op<ops::Split>({x, tensor::from<std::int64_t>({2, 0, 5}, {3})}, {attr("axis", 1)}, 3);
  REQUIRE(r.ok());
  check(*r, {2, 0, 5});
  auto n = run_op<ops::Split>({x}, {attr("axis", -2), attr("num_outputs", 3)}, 3);
  REQUIRE(n.ok());
  check(*n, {3, 3, 1});
  auto e = run_op<ops::Split>({tensor::from<std::int64_t>({1, 2, 3, 4}, {4})}, {}, 2);
  REQUIRE(e.ok());
  test::require_close<std::int64_t>((*e)[1], {3, 4}, 0, 0);
}

TEST_CASE("Split: sizes that do not add up, uneven equal split fail") {
  auto x = tensor::zeros(dtype::float32, {5});
  CHECK_FALSE(run_op<ops::Split>({x, tensor::from<std::int64_t>({2, 2}, {2})}, {}, 2).ok());
  auto r = run_op<ops::Split>({x}, {}, 2);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("evenly") != std::string::npos);
}
