#include "kernels/cpu/scatter_elements.hpp"
#include "kernels/cpu/scatter_nd.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("ScatterElements: every reduction, repeated indices combine in order") {
  auto x = tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto idx = tensor::from<std::int64_t>({1, 1, -3}, {1, 3});
  auto upd = tensor::from<float>({10, 20, 30}, {1, 3});
  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"none", {30, 20, 3, 4, 5, 6}},  // last write wins
      {"add", {31, 32, 3, 4, 5, 6}},
      {"mul", {30, 400, 3, 4, 5, 6}},
      {"max", {30, 20, 3, 4, 5, 6}},
      {"min", {1, 2, 3, 4, 5, 6}}};
  for (auto& [red, expected] : cases) {
    INFO(red);
    auto r = run_op<ops::ScatterElements>({x, idx, upd}, {attr("axis", 1), attr("reduction", red)});
    REQUIRE(r.ok());
    test::require_close((*r)[0], expected, 0, 0);
  }
  auto a0 = run_op<ops::ScatterElements>({x, tensor::from<std::int32_t>({1, 0}, {1, 2}), tensor::from<float>({7, 8}, {1, 2})});
  REQUIRE(a0.ok());
  test::require_close<float>((*a0)[0], {1, 8, 3, 7, 5, 6}, 0, 0);
}

TEST_CASE("ScatterElements: out-of-range index, reduction on strings fail") {
  auto x = tensor::zeros(dtype::float32, {2, 3});
  auto r = run_op<ops::ScatterElements>({x, tensor::from<std::int64_t>({2}, {1, 1}), tensor::zeros(dtype::float32, {1, 1})});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == errc::out_of_range);
  CHECK(r.error().message() == "index 2 at position [0,0] is out of range [-2, 1]");
  auto s = tensor::zeros(dtype::string, {2});
  CHECK_FALSE(run_op<ops::ScatterElements>({s, tensor::from<std::int64_t>({0}, {1}), tensor::zeros(dtype::string, {1})},
                                           {attr("reduction", std::string("add"))}).ok());
}

TEST_CASE("ScatterND: slices and elements, add reduction, bad index") {
  auto x = tensor::from<std::int32_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  auto r = run_op<ops::ScatterND>({x, tensor::from<std::int64_t>({1, 0}, {1, 2}), tensor::from<std::int32_t>({50, 60}, {1, 2})});
  REQUIRE(r.ok());
  test::require_close<std::int32_t>((*r)[0], {1, 2, 3, 4, 50, 60, 7, 8}, 0, 0);
  auto a = run_op<ops::ScatterND>({x, tensor::from<std::int64_t>({0, 0, 1, 0, 0, 1}, {2, 3}), tensor::from<std::int32_t>({10, 100}, {2})},
                                  {attr("reduction", std::string("add"))});
  REQUIRE(a.ok());
  test::require_close<std::int32_t>((*a)[0], {1, 112, 3, 4, 5, 6, 7, 8}, 0, 0);
  auto bad = run_op<ops::ScatterND>({x, tensor::from<std::int64_t>({-3}, {1, 1}), tensor::zeros(dtype::int32, {1, 2, 2})});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == errc::out_of_range);
}
