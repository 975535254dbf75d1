// Col2Im against a direct fold loop (pads, strides, dilations); bad input
// channel count.
#include <catch2/catch.hpp>

#include "kernels/cpu/col2im.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("Col2Im folds blocks back into the image", "[misc]") {
  const int N = 2, C = 2, H = 6, W = 5, kh = 2, kw = 3, s = 2, d = 1, p = 1;
  int gh = (H + 2 * p - ((kh - 1) * d + 1)) / s + 1, gw = (W + 2 * p - ((kw - 1) * d + 1)) / s + 1;
  auto x = test::random_values<double>(N * C * kh * kw * gh * gw, -1, 1, 131);
  std::vector<double> want(N * C * H * W, 0);
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int u = 0; u < kh; ++u)
        for (int v = 0; v < kw; ++v)
          for (int i = 0; i < gh; ++i)
            for (int j = 0; j < gw; ++j) {
              int r = i * s - p + u * d, q = j * s - p + v * d;
              if (r < 0 || r >= H || q < 0 || q >= W) continue;
              want[((n * C + c) * H + r) * W + q] += x[((n * C * kh * kw + (c * kh + u) * kw + v) * gh + i) * gw + j];
            }
  std::vector<attribute> attrs{test::attr("pads", std::vector<std::int64_t>{p, p, p, p}),
                                      test::attr("strides", std::vector<std::int64_t>{s, s})};
  auto r = test::run_op<ops::Col2Im>({tensor::from(x, {N, C * kh * kw, gh * gw}), tensor::from<std::int64_t>({H, W}, {2}),
                                      tensor::from<std::int64_t>({kh, kw}, {2})},
                                     attrs);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{N, C, H, W});
  test::require_close((*r)[0], want, 1e-12, 1e-12);
}

TEST_CASE("Col2Im rejects channels that are not a multiple of the block", "[misc]") {
  auto r = test::run_op<ops::Col2Im>({tensor::from(std::vector<float>(5 * 4, 0), {1, 5, 4}),
                                      tensor::from<std::int64_t>({3, 3}, {2}), tensor::from<std::int64_t>({2, 2}, {2})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("multiple") != std::string::npos);
}
