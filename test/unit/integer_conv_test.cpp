// ConvInteger and QLinearConv against a plain 2-D convolution loop with
// padding, stride, dilation and groups; a bad weight zero point.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/integer_conv.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
// x [1, C, H, W], w [M, C/G, 3, 3], pads 1, strides 2, dilations 1 or 2.
std::vector<std::int64_t> conv_ref(const std::vector<int>& x, const std::vector<int>& w, int C, int H, int W, int M,
                                   int G, int dil, int s, int& oh, int& ow) {
  int p = 1, k = 3, span = (k - 1) * dil + 1;
  oh = (H + 2 * p - span) / s + 1, ow = (W + 2 * p - span) / s + 1;
  std::vector<std::int64_t> y(M * oh * ow, 0);
  int cg = C / G, mg = M / G;
  for (int m = 0; m < M; ++m)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j)
        for (int c = 0; c < cg; ++c)
          for (int u = 0; u < k; ++u)
            for (int v = 0; v < k; ++v) {
              int r = i * s - p + u * dil, q = j * s - p + v * dil;
              if (r < 0 || r >= H || q < 0 || q >= W) continue;
              y[(m * oh + i) * ow + j] += std::int64_t(x[((m / mg) * cg + c) * H * W + r * W + q]) * w[((m * cg + c) * k + u) * k + v];
            }
  return y;
}
}  // namespace

TEST_CASE("ConvInteger and QLinearConv match a direct convolution", "[misc]") {
  // grouped (GEMM per group), plain, depthwise (its own loop), at strides 1 and 2
  for (auto [C, M, G] : {std::tuple{4, 6, 2}, std::tuple{5, 6, 1}, std::tuple{6, 6, 6}})
  for (int stride : {1, 2})
  for (int dil : {1, 2}) {
  INFO("C " << C << " M " << M << " group " << G << " stride " << stride << " dilation " << dil);
  const int H = 7, W = 6;
  auto x = test::random_values<std::uint8_t>(C * H * W, 0, 255, 95);
  auto w = test::random_values<std::uint8_t>(M * (C / G) * 9, 0, 255, 96);
  std::uint8_t zx = 100;
  std::vector<std::uint8_t> zw{1, 2, 3, 4, 5, 6};
  std::vector<int> xs(x.begin(), x.end()), ws(w.begin(), w.end());
  for (auto& v : xs) v -= zx;
  for (std::size_t i = 0; i < ws.size(); ++i) ws[i] -= zw[i / ((C / G) * 9)];
  {
    int oh = 0, ow = 0;
    auto want = conv_ref(xs, ws, C, H, W, M, G, dil, stride, oh, ow);
    std::vector<attribute> attrs{test::attr("pads", std::vector<std::int64_t>{1, 1, 1, 1}),
                                        test::attr("strides", std::vector<std::int64_t>{stride, stride}),
                                        test::attr("dilations", std::vector<std::int64_t>{dil, dil}),
                                        test::attr("group", G)};
    thread_pool pool(2);
    auto r = test::run_op<ops::ConvInteger>({tensor::from(x, {1, C, H, W}), tensor::from(w, {M, C / G, 3, 3}),
                                             tensor::scalar(zx), tensor::from(zw, {M})},
                                            attrs, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{1, M, oh, ow});
    test::require_close((*r)[0], std::vector<std::int32_t>(want.begin(), want.end()), 0, 0);

    std::vector<std::int32_t> bias{10, -20, 30, -40, 50, -60};
    float sx = 0.01f, sw = 0.02f, sy = 0.3f;
    std::uint8_t zy = 128;
    std::vector<std::uint8_t> q(want.size());
    double f = float(float(sx * sw) / sy);
    for (std::size_t i = 0; i < want.size(); ++i)
      q[i] = std::uint8_t(std::clamp(std::nearbyint(double(want[i] + bias[i / (oh * ow)]) * f + zy), 0.0, 255.0));
    auto ql = test::run_op<ops::QLinearConv>(
        {tensor::from(x, {1, C, H, W}), tensor::scalar(sx), tensor::scalar(zx), tensor::from(w, {M, C / G, 3, 3}),
         tensor::scalar(sw), tensor::from(zw, {M}), tensor::scalar(sy), tensor::scalar(zy), tensor::from(bias, {M})},
        attrs, 1, &pool);
    REQUIRE(ql.ok());
    test::require_close((*ql)[0], q, 0, 0);
  }
  }
}

// Enough channels that im2col is cut in slices of output positions (about
// 1 MiB of col each: 256 positions at K = 4095), several B panels and a part
// panel per slice, and a K that ends inside a 4-byte group.
TEST_CASE("ConvInteger over several im2col slices", "[misc]") {
  const int C = 455, M = 3, H = 20, W = 20;
  auto x = test::random_values<std::uint8_t>(C * H * W, 0, 255, 97);
  auto w = test::random_values<std::uint8_t>(M * C * 9, 0, 255, 98);
  const std::uint8_t zx = 37, zw = 201;
  std::vector<int> xs(x.begin(), x.end()), ws(w.begin(), w.end());
  for (auto& v : xs) v -= zx;
  for (auto& v : ws) v -= zw;
  for (int stride : {1, 2}) {
    INFO("stride " << stride);
    int oh = 0, ow = 0;
    auto want = conv_ref(xs, ws, C, H, W, M, 1, 1, stride, oh, ow);
    thread_pool pool(2);
    auto r = test::run_op<ops::ConvInteger>(
        {tensor::from(x, {1, C, H, W}), tensor::from(w, {M, C, 3, 3}), tensor::scalar(zx), tensor::scalar(zw)},
        {test::attr("pads", std::vector<std::int64_t>{1, 1, 1, 1}),
         test::attr("strides", std::vector<std::int64_t>{stride, stride})},
        1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{1, M, oh, ow});
    test::require_close((*r)[0], std::vector<std::int32_t>(want.begin(), want.end()), 0, 0);
  }
}

// Depthwise 2-D runs in float where that is exact (at most 256 taps of
// |x - zx|, |w - zw| <= 255), else an int32 loop: both at the largest
// magnitudes, 16x16 taps (the bound) and 17x16, int8 and uint8 operands.
TEST_CASE("ConvInteger depthwise is exact at the largest magnitudes", "[misc]") {
  for (auto [kh, kw] : {std::pair{16, 16}, std::pair{17, 16}, std::pair{5, 5}})
    for (bool sgn : {false, true}) {
      INFO(kh << "x" << kw << (sgn ? " int8" : " uint8"));
      const int C = 3, H = kh + 2, W = kw + 3;  // 3 x 4 outputs per channel
      thread_pool pool(2);
      auto run = [&](auto x_val, auto zx, auto w_val, auto zw) {
        using X = decltype(x_val);
        using Wt = decltype(w_val);
        std::vector<X> x(static_cast<std::size_t>(C * H * W), x_val);
        std::vector<Wt> w(static_cast<std::size_t>(C * kh * kw), w_val);
        auto r = test::run_op<ops::ConvInteger>({tensor::from(x, {1, C, H, W}), tensor::from(w, {C, 1, kh, kw}),
                                                 tensor::scalar(zx), tensor::scalar(zw)},
                                                {test::attr("group", std::int64_t{C})}, 1, &pool);
        REQUIRE(r.ok());
        CHECK((*r)[0].shape() == extents{1, C, 3, 4});
        const std::int64_t want = std::int64_t{kh} * kw * (std::int64_t(x_val) - zx) * (std::int64_t(w_val) - zw);
        test::require_close((*r)[0], std::vector<std::int32_t>(C * 12, static_cast<std::int32_t>(want)), 0, 0);
      };
      if (sgn)
        run(std::int8_t{-128}, std::int8_t{127}, std::int8_t{127}, std::int8_t{-128});  // (-255) * 255 per tap
      else
        run(std::uint8_t{255}, std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{255});  // 255 * (-255) per tap
    }
}

TEST_CASE("ConvInteger rejects a weight zero point of the wrong length", "[misc]") {
  auto r = test::run_op<ops::ConvInteger>({tensor::from(std::vector<std::uint8_t>(9, 1), {1, 1, 3, 3}),
                                           tensor::from(std::vector<std::uint8_t>(8, 1), {2, 1, 2, 2}),
                                           tensor::scalar<std::uint8_t>(0),
                                           tensor::from(std::vector<std::uint8_t>{1, 2, 3}, {3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("w_zero_point") != std::string::npos);
}
