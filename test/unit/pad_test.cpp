#include "kernels/cpu/pad.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {
// numpy.pad semantics for one coordinate, written independently of the kernel.
std::int64_t source(std::int64_t i, std::int64_t d, const std::string& mode) {
  if (mode == "edge") return std::clamp<std::int64_t>(i, 0, d - 1);
  if (mode == "wrap") {
    while (i < 0) i += d;
    return i % d;
  }
  while (i < 0 || i >= d) i = i < 0 ? -i : 2 * (d - 1) - i;  // reflect
  return i;
}
}  // namespace

TEST_CASE("Pad: every mode on a rank-3 input, including pads wider than the input") {
  extents s{2, 3, 4};
  auto v = test::random_values<float>(24, -1, 1, 12);
  auto x = tensor::from(v, s);
  std::vector<std::int64_t> pads{1, 2, 5, 0, 3, 2};
  for (std::string mode : {"constant", "reflect", "edge", "wrap"}) {
    INFO(mode);
    std::vector<tensor> in{x, tensor::from(pads, {6})};
    if (mode == "constant") in.push_back(tensor::scalar<float>(7.5f));
    auto r = run_op<ops::Pad>(in, {attr("mode", mode)});
    REQUIRE(r.ok());
    extents o{3, 8, 11};
    REQUIRE((*r)[0].shape() == o);
    std::vector<float> expected;
    for (std::int64_t a = 0; a < 3; ++a)
      for (std::int64_t b = 0; b < 8; ++b)
        for (std::int64_t c = 0; c < 11; ++c) {
          std::int64_t i = a - 1, j = b - 2, k = c - 5;
          if (mode == "constant") {
            bool in_range = i >= 0 && i < 2 && j >= 0 && j < 3 && k >= 0 && k < 4;
            expected.push_back(in_range ? v[(i * 3 + j) * 4 + k] : 7.5f);
          } else {
            expected.push_back(v[(source(i, 2, mode) * 3 + source(j, 3, mode)) * 4 + source(k, 4, mode)]);
          }
        }
    test::require_close((*r)[0], expected, 0, 0);
  }
}

TEST_CASE("Pad: negative pads crop, axes select dims, value converts to T") {
  auto x = tensor::from<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto r = run_op<ops::Pad>({x, tensor::from<std::int64_t>({-1, 2}, {2}), tensor::scalar<float>(9.f),
                             tensor::from<std::int64_t>({1}, {1})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, 4});
  test::require_close<std::int32_t>((*r)[0], {2, 3, 9, 9, 5, 6, 9, 9}, 0, 0);
}

TEST_CASE("Pad: wrong pads length, bad mode, over-cropping fail") {
  auto x = tensor::zeros(dtype::float32, {2, 3});
  CHECK_FALSE(run_op<ops::Pad>({x, tensor::from<std::int64_t>({1, 1}, {2})}).ok());
  CHECK_FALSE(run_op<ops::Pad>({x, tensor::from<std::int64_t>({0, 0, 0, 0}, {4})}, {attr("mode", std::string("mirror"))}).ok());
  CHECK_FALSE(run_op<ops::Pad>({x, tensor::from<std::int64_t>({-2, 0, -1, 0}, {4})}).ok());
}
