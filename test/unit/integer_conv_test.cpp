// ConvInteger and QLinearConv against a plain 2-D convolution loop with
// padding, stride, dilation and groups; a bad weight zero point.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/integer_conv.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

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

/// ConvInteger on x [1, C, H, W] and w [M, C/G, 3, 3] (pads 1, group G, the
/// stride given, one zero point each) against conv_ref, exactly.
void check_against_reference(const std::vector<std::uint8_t>& x, const std::vector<std::uint8_t>& w, std::uint8_t zx,
                             std::uint8_t zw, int C, int H, int W, int M, int G, int stride) {
  std::vector<int> xs(x.begin(), x.end()), ws(w.begin(), w.end());
  for (auto& v : xs) v -= zx;
  for (auto& v : ws) v -= zw;
  int oh = 0, ow = 0;
  auto want = conv_ref(xs, ws, C, H, W, M, G, 1, stride, oh, ow);
  thread_pool pool(2);
  auto r = test::run_op<ops::ConvInteger>(
      {tensor::from(x, {1, C, H, W}), tensor::from(w, {M, C / G, 3, 3}), tensor::scalar(zx), tensor::scalar(zw)},
      {test::attr("pads", std::vector<std::int64_t>{1, 1, 1, 1}), test::attr("group", std::int64_t{G}),
       test::attr("strides", std::vector<std::int64_t>{stride, stride})},
      1, &pool);
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{1, M, oh, ow});
  test::require_close((*r)[0], std::vector<std::int32_t>(want.begin(), want.end()), 0, 0);
}
}  // namespace

TEST_CASE("ConvInteger and QLinearConv match a direct convolution", "[misc]") {
  // grouped (GEMM per group), plain, depthwise (its own loop), at strides 1, 2 and 3
  // (im2col: the row copied, the stride-2 loop, the general one)
  for (auto [C, M, G] : {std::tuple{4, 6, 2}, std::tuple{5, 6, 1}, std::tuple{6, 6, 6}})
  for (int stride : {1, 2, 3})
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
  for (int stride : {1, 2}) {
    INFO("stride " << stride);
    check_against_reference(x, w, 37, 201, C, H, W, M, 1, stride);
  }
}

TEST_CASE("ConvInteger depthwise over rows wider than one band", "[misc]") {
  // 2048 outputs a band: rows of 1100 (stride 1) and 550 (stride 2) outputs
  // make bands of one and of three rows, the last band short.
  const int C = 3, H = 9, W = 1100;
  auto x = test::random_values<std::uint8_t>(C * H * W, 0, 255, 91);
  auto w = test::random_values<std::uint8_t>(C * 9, 0, 255, 92);
  for (int stride : {1, 2}) {
    INFO("stride " << stride);
    check_against_reference(x, w, 131, 7, C, H, W, C, C, stride);
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

// The direct kernel at the largest magnitudes: every input at the far end of
// its range against weights at both ends, so that on avx2, whose vpmaddubsw
// tile is pair-bound on the weights, nearly every pair is over the bound and
// goes through the fixes (q8_direct_weights); K = 512 x 9, two panels, one
// of them partial; both operand types.
TEST_CASE("ConvInteger's direct kernel is exact at the largest magnitudes", "[misc]") {
  const int C = 512, M = 7, H = 3, W = 18;
  thread_pool pool(2);
  for (bool sgn : {false, true}) {
    INFO((sgn ? "x int8, w uint8" : "x uint8, w int8"));
    // x - zx = 255 everywhere; w - zw cycles through 127, -128, 127, 127, -128, 1, -128, -128.
    const std::uint8_t xb = sgn ? 0x7f : 255, zxb = sgn ? 0x80 : 0;  // int8: 127 - (-128)
    const int pattern[8] = {127, -128, 127, 127, -128, 1, -128, -128};
    std::vector<std::uint8_t> wb(static_cast<std::size_t>(M * C * 9));
    for (std::size_t i = 0; i < wb.size(); ++i)
      wb[i] = sgn ? static_cast<std::uint8_t>(pattern[(i * 5 + i / 9) % 8] + 128)  // uint8, zero point 128
                  : static_cast<std::uint8_t>(static_cast<std::int8_t>(pattern[(i * 5 + i / 9) % 8]));
    const std::uint8_t zwb = sgn ? 128 : 0;
    std::vector<std::int32_t> want(static_cast<std::size_t>(M * H * W));
    for (int m = 0; m < M; ++m)
      for (int i = 0; i < H; ++i)
        for (int j = 0; j < W; ++j) {
          std::int64_t sum = 0;
          for (int c = 0; c < C; ++c)
            for (int u = 0; u < 3; ++u)
              for (int v = 0; v < 3; ++v) {
                if (i - 1 + u < 0 || i - 1 + u >= H || j - 1 + v < 0 || j - 1 + v >= W) continue;
                sum += 255 * std::int64_t(pattern[(std::size_t((m * C + c) * 9 + u * 3 + v) * 5 +
                                                   std::size_t((m * C + c) * 9 + u * 3 + v) / 9) % 8]);
              }
          want[static_cast<std::size_t>((m * H + i) * W + j)] = static_cast<std::int32_t>(sum);
        }
    const auto bytes = [](const std::vector<std::uint8_t>& v, dtype t, extents e) {
      tensor r = tensor::zeros(t, e);
      std::memcpy(r.raw(), v.data(), v.size());
      return r;
    };
    const dtype xt = sgn ? dtype::int8 : dtype::uint8, wt = sgn ? dtype::uint8 : dtype::int8;
    auto r = test::run_op<ops::ConvInteger>(
        {bytes(std::vector<std::uint8_t>(static_cast<std::size_t>(C * H * W), xb), xt, {1, C, H, W}),
         bytes(wb, wt, {M, C, 3, 3}), bytes({zxb}, xt, {}), bytes({zwb}, wt, {})},
        {test::attr("pads", std::vector<std::int64_t>{1, 1, 1, 1})}, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{1, M, H, W});
    test::require_close((*r)[0], want, 0, 0);
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

// Stride-1 convolutions with one weight zero point: on AVX-512 VNNI these run
// the direct 2-D kernel (kernels/cpu/integer_conv.hpp, q8_conv_direct), which
// reads the input in place in a padded plane of four channels per group and
// computes the padded width's extra columns. Channels not a multiple of 4,
// widths not a multiple of 32, asymmetric pads, dilation, 5x5 and 1x3
// windows, int8 and uint8 on both sides, two images, more output channels
// than one tile, a zero point given per channel but all equal.
TEST_CASE("ConvInteger and QLinearConv at stride 1 with one weight zero point", "[misc]") {
  struct shape {
    int N, C, M, H, W, kh, kw, pt, pl, pb, pr, dil;
    bool x_signed, w_signed, zw_vector;
  };
  const shape cases[] = {{1, 5, 9, 7, 6, 3, 3, 1, 1, 1, 1, 1, false, false, false},
                         {1, 8, 24, 12, 37, 3, 3, 1, 1, 1, 1, 1, false, true, false},
                         {2, 3, 8, 9, 40, 5, 5, 2, 2, 2, 2, 1, true, true, true},
                         {1, 6, 17, 10, 10, 3, 3, 0, 2, 1, 0, 2, false, true, false},
                         {1, 4, 1, 5, 70, 1, 3, 0, 1, 0, 1, 1, true, false, false},
                         {1, 96, 24, 20, 20, 3, 3, 1, 1, 1, 1, 1, false, true, false}};
  thread_pool pool(2);
  for (const shape& s : cases) {
    INFO("N " << s.N << " C " << s.C << " M " << s.M << " " << s.H << "x" << s.W << " kernel " << s.kh << "x" << s.kw
              << " dilation " << s.dil << " x int8 " << s.x_signed << " w int8 " << s.w_signed);
    const int oh = s.H + s.pt + s.pb - (s.kh - 1) * s.dil, ow = s.W + s.pl + s.pr - (s.kw - 1) * s.dil;
    auto xb = test::random_values<std::uint8_t>(s.N * s.C * s.H * s.W, 0, 256, 101);
    auto wb = test::random_values<std::uint8_t>(s.M * s.C * s.kh * s.kw, 0, 256, 102);
    const int zx = s.x_signed ? -7 : 131, zw = s.w_signed ? 3 : 120;
    const auto val = [](std::uint8_t b, bool sgn) { return sgn ? int(std::int8_t(b)) : int(b); };
    std::vector<std::int32_t> want(static_cast<std::size_t>(s.N * s.M * oh * ow), 0);
    for (int n = 0; n < s.N; ++n)
      for (int m = 0; m < s.M; ++m)
        for (int i = 0; i < oh; ++i)
          for (int j = 0; j < ow; ++j) {
            std::int64_t sum = 0;
            for (int c = 0; c < s.C; ++c)
              for (int u = 0; u < s.kh; ++u)
                for (int v = 0; v < s.kw; ++v) {
                  const int r = i - s.pt + u * s.dil, q = j - s.pl + v * s.dil;
                  if (r < 0 || r >= s.H || q < 0 || q >= s.W) continue;
                  sum += std::int64_t(val(xb[((n * s.C + c) * s.H + r) * s.W + q], s.x_signed) - zx) *
                         (val(wb[((m * s.C + c) * s.kh + u) * s.kw + v], s.w_signed) - zw);
                }
            want[((n * s.M + m) * oh + i) * ow + j] = static_cast<std::int32_t>(sum);
          }
    const auto x_t = s.x_signed ? dtype::int8 : dtype::uint8, w_t = s.w_signed ? dtype::int8 : dtype::uint8;
    const auto bytes = [](const std::vector<std::uint8_t>& v, dtype t, extents e) {
      tensor r = tensor::zeros(t, e);
      std::memcpy(r.raw(), v.data(), v.size());
      return r;
    };
    const tensor x = bytes(xb, x_t, {s.N, s.C, s.H, s.W}), w = bytes(wb, w_t, {s.M, s.C, s.kh, s.kw});
    const tensor zx_t = bytes({std::uint8_t(zx)}, x_t, {});
    const tensor zw_t = s.zw_vector ? bytes(std::vector<std::uint8_t>(static_cast<std::size_t>(s.M), std::uint8_t(zw)), w_t, {s.M})
                                    : bytes({std::uint8_t(zw)}, w_t, {});
    std::vector<attribute> attrs{test::attr("pads", std::vector<std::int64_t>{s.pt, s.pl, s.pb, s.pr}),
                                 test::attr("dilations", std::vector<std::int64_t>{s.dil, s.dil}),
                                 test::attr("kernel_shape", std::vector<std::int64_t>{s.kh, s.kw})};
    auto r = test::run_op<ops::ConvInteger>({x, w, zx_t, zw_t}, attrs, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{s.N, s.M, oh, ow});
    test::require_close((*r)[0], want, 0, 0);

    std::vector<std::int32_t> bias(static_cast<std::size_t>(s.M));
    for (int m = 0; m < s.M; ++m) bias[m] = (m % 2 ? -1 : 1) * 37 * m;
    const float sx = 0.02f, sw = 0.01f, sy = 0.5f;
    const int zy = s.x_signed ? 5 : 128;
    const double f = float(float(sx * sw) / sy);
    std::vector<std::uint8_t> q(want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const double v = std::nearbyint(double(want[i] + bias[(i / (oh * ow)) % s.M]) * f + zy);
      q[i] = s.x_signed ? std::uint8_t(std::int8_t(std::clamp(v, -128.0, 127.0))) : std::uint8_t(std::clamp(v, 0.0, 255.0));
    }
    auto ql = test::run_op<ops::QLinearConv>({x, tensor::scalar(sx), zx_t, w, tensor::scalar(sw), zw_t, tensor::scalar(sy),
                                              bytes({std::uint8_t(zy)}, x_t, {}), tensor::from(bias, {s.M})},
                                             attrs, 1, &pool);
    REQUIRE(ql.ok());
    REQUIRE((*ql)[0].size() == static_cast<std::int64_t>(q.size()));
    CHECK(std::memcmp((*ql)[0].raw(), q.data(), q.size()) == 0);
  }
}

// A window dilated and padded by 2^30 over a 4x4 map: every tap but the
// centre lies in the padding. The padded planes of the direct kernel and of
// the depthwise loops would hold 2^62 positions, so these shapes take the
// paths that skip the padding; the result is the centre tap alone.
TEST_CASE("ConvInteger with a vast dilation and padding runs on the taps inside", "[misc]") {
  const std::int64_t far = std::int64_t{1} << 30;
  thread_pool pool(2);
  for (const auto& [C, M, G] : {std::tuple<int, int, int>{5, 3, 1}, {4, 4, 4}}) {
    INFO("C " << C << " M " << M << " group " << G);
    const int cg = C / G;
    auto x = test::random_values<std::uint8_t>(C * 16, 0, 256, 103);
    auto w = test::random_values<std::uint8_t>(M * cg * 9, 0, 256, 104);
    const std::uint8_t zx = 9, zw = 200;
    std::vector<std::int32_t> want(static_cast<std::size_t>(M * 16));
    for (int m = 0; m < M; ++m)
      for (int p = 0; p < 16; ++p) {
        std::int32_t sum = 0;
        for (int c = 0; c < cg; ++c)
          sum += (int(x[((m / (M / G)) * cg + c) * 16 + p]) - zx) * (int(w[(m * cg + c) * 9 + 4]) - zw);
        want[static_cast<std::size_t>(m * 16 + p)] = sum;
      }
    std::vector<attribute> attrs{test::attr("pads", std::vector<std::int64_t>{far, far, far, far}),
                                 test::attr("dilations", std::vector<std::int64_t>{far, far}), test::attr("group", G)};
    auto r = test::run_op<ops::ConvInteger>({tensor::from(x, {1, C, 4, 4}), tensor::from(w, {M, cg, 3, 3}),
                                             tensor::scalar(zx), tensor::scalar(zw)},
                                            attrs, 1, &pool);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{1, M, 4, 4});
    test::require_close((*r)[0], want, 0, 0);

    // In a session W is released where prepare packs it for the path run
    // takes: with X's extents declared, the GEMM's (the direct plane does
    // not fit); with them symbolic, the direct layout and W kept, which run
    // reads when the plane turns out not to fit.
    for (bool symbolic : {false, true}) {
      INFO((symbolic ? "X symbolic" : "X declared"));
      graph::model_builder b{21};
      const auto xin = symbolic ? b.input("x", dtype::uint8, {1, C, "H", "W"}) : b.input("x", dtype::uint8, {1, C, 4, 4});
      b.output(b.node("ConvInteger",
                      {xin, b.initializer("w", tensor::from(w, {M, cg, 3, 3})), b.initializer("zx", tensor::scalar(zx)),
                       b.initializer("zw", tensor::scalar(zw))},
                      {{"pads", std::vector<std::int64_t>{far, far, far, far}},
                       {"dilations", std::vector<std::int64_t>{far, far}},
                       {"group", std::int64_t{G}}}));
      const auto path = test::temp_path("vast_conv_integer.onnx");
      REQUIRE(b.save(path).ok());
      session sess(path, {.threads = 2});
      const auto out = sess.run({{"x", tensor::from(x, {1, C, 4, 4})}});
      REQUIRE(out.size() == 1);
      test::require_close(out[0].as_tensor(), want, 0, 0);
    }
  }
}
