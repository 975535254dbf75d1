// Compress along each axis and flattened, a short condition, strings;
// a true entry past the axis and a non-bool condition fail.
#include <catch2/catch.hpp>

#include "kernels/cpu/compress.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("Compress selects slices along an axis or of the flattened input", "[misc]") {
  auto x = test::random_values<float>(3 * 4 * 5, -1, 1, 51);
  auto tx = tensor::from(x, {3, 4, 5});
  std::vector<bool> keep{true, false, true, true};
  auto r = test::run_op<ops::Compress>({tx, tensor::from(keep, {4})}, {test::attr("axis", -2)});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{3, 3, 5});
  std::vector<float> want;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      if (keep[b])
        for (int d = 0; d < 5; ++d) want.push_back(x[(a * 4 + b) * 5 + d]);
  test::require_close((*r)[0], want, 0, 0);

  std::vector<bool> short_keep{false, true, false, true, true};  // 5 of 60 entries
  auto f = test::run_op<ops::Compress>({tx, tensor::from(short_keep, {5})});
  REQUIRE(f.ok());
  test::require_close((*f)[0], std::vector<float>{x[1], x[3], x[4]}, 0, 0);

  auto s = test::run_op<ops::Compress>({tensor::from(std::vector<std::string>{"a", "b", "c"}, {3}),
                                        tensor::from(std::vector<bool>{true, false, true}, {3})},
                                       {test::attr("axis", 0)});
  REQUIRE(s.ok());
  CHECK((*s)[0].values<std::string>()[1] == "c");
}

TEST_CASE("Compress rejects a true entry past the axis and a non-bool condition", "[misc]") {
  auto tx = tensor::from(std::vector<float>{1, 2}, {2});
  auto r = test::run_op<ops::Compress>({tx, tensor::from(std::vector<bool>{false, false, true}, {3})},
                                       {test::attr("axis", 0)});
  REQUIRE(!r.ok());
  CHECK(r.error().code() == errc::out_of_range);
  CHECK(r.error().message().find("condition[2]") != std::string::npos);
  auto t = test::run_op<ops::Compress>({tx, tensor::from(std::vector<float>{1, 0}, {2})});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("T1") != std::string::npos);
}
