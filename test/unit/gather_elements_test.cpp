#include "kernels/cpu/gather_elements.hpp"
#include "kernels/cpu/gather_nd.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("GatherElements: every axis, indices smaller than data, negatives") {
  extents s{3, 4, 5}, is{2, 3, 4};
  auto v = test::random_values<double>(60, -1, 1, 4);
  auto x = tensor::from(v, s);
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<std::int32_t> iv(24);
    std::mt19937 gen(axis);
    for (auto& e : iv) e = static_cast<std::int32_t>(gen() % (2 * s[axis])) - static_cast<std::int32_t>(s[axis]);
    auto r = run_op<ops::GatherElements>({x, tensor::from(iv, is)}, {attr("axis", axis)});
    REQUIRE(r.ok());
    std::vector<double> expected;
    for (std::int64_t a = 0; a < 2; ++a)
      for (std::int64_t b = 0; b < 3; ++b)
        for (std::int64_t c = 0; c < 4; ++c) {
          std::int64_t co[3] = {a, b, c}, j = iv[(a * 3 + b) * 4 + c];
          co[axis] = j < 0 ? j + s[axis] : j;
          expected.push_back(v[(co[0] * 4 + co[1]) * 5 + co[2]]);
        }
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("GatherElements: out-of-range index is reported") {
  auto r = run_op<ops::GatherElements>({tensor::zeros(dtype::float32, {2, 3}), tensor::from<std::int64_t>({0, 1, -4}, {1, 3})},
                                       {attr("axis", 1)});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == errc::out_of_range);
  CHECK(r.error().message() == "index -4 at position [0,2] is out of range [-3, 2]");
}

TEST_CASE("GatherND: slices, full addresses, batch_dims") {
  auto x = tensor::from<std::int32_t>({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2});
  auto r = run_op<ops::GatherND>({x, tensor::from<std::int64_t>({1, 0, 0, -1}, {2, 2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 2});
  test::require_close<std::int32_t>((*r)[0], {4, 5, 2, 3}, 0, 0);
  auto full = run_op<ops::GatherND>({x, tensor::from<std::int64_t>({1, 1, 0}, {1, 3})});
  REQUIRE(full.ok());
  test::require_close<std::int32_t>((*full)[0], {6}, 0, 0);
  auto batched = run_op<ops::GatherND>({x, tensor::from<std::int64_t>({1, 0}, {2, 1})}, {attr("batch_dims", 1)});
  REQUIRE(batched.ok());
  CHECK((*batched)[0].shape() == extents{2, 2});
  test::require_close<std::int32_t>((*batched)[0], {2, 3, 4, 5}, 0, 0);
  auto bad = run_op<ops::GatherND>({x, tensor::from<std::int64_t>({0, 2}, {1, 2})});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == errc::out_of_range);
  CHECK(bad.error().message().find("index 2 at position [0,1]") != std::string::npos);
}
