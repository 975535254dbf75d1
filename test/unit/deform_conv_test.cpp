// DeformConv against a direct reference of its formula (bilinear samples at
// displaced taps, zeros outside), and against a plain convolution when the
// offsets are zero; groups, offset groups, mask, bias, stride, padding and
// dilation; inconsistent shapes fail.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/deform_conv.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
struct geometry {
  std::int64_t N, C, H, W, M, kh, kw, G, OG, stride, pad, dilation;
  std::int64_t oh() const { return (H + 2 * pad - (kh - 1) * dilation - 1) / stride + 1; }
  std::int64_t ow() const { return (W + 2 * pad - (kw - 1) * dilation - 1) / stride + 1; }
};

double sample(const std::vector<double>& x, std::int64_t plane, const geometry& g, double y, double xx) {
  double v = 0;
  const double y0 = std::floor(y), x0 = std::floor(xx);
  for (double yy : {y0, y0 + 1})
    for (double xq : {x0, x0 + 1}) {
      if (yy < 0 || yy >= g.H || xq < 0 || xq >= g.W) continue;
      const double weight = (1 - std::abs(y - yy)) * (1 - std::abs(xx - xq));
      v += weight * x[static_cast<std::size_t>((plane * g.H + static_cast<std::int64_t>(yy)) * g.W +
                                               static_cast<std::int64_t>(xq))];
    }
  return v;
}

std::vector<double> reference(const geometry& g, const std::vector<double>& x, const std::vector<double>& w,
                              const std::vector<double>& off, const std::vector<double>* mask,
                              const std::vector<double>& bias) {
  const std::int64_t oh = g.oh(), ow = g.ow(), cg = g.C / g.G, mg = g.M / g.G, taps = g.kh * g.kw;
  std::vector<double> y;
  for (std::int64_t n = 0; n < g.N; ++n)
    for (std::int64_t m = 0; m < g.M; ++m)
      for (std::int64_t i = 0; i < oh; ++i)
        for (std::int64_t j = 0; j < ow; ++j) {
          double acc = bias[static_cast<std::size_t>(m)];
          for (std::int64_t ci = 0; ci < cg; ++ci) {
            const std::int64_t ch = m / mg * cg + ci, og = ch / (g.C / g.OG);
            for (std::int64_t t = 0; t < taps; ++t) {
              auto at = [&](std::int64_t k) {
                return off[static_cast<std::size_t>((((n * g.OG + og) * taps * 2 + k) * oh + i) * ow + j)];
              };
              const double dy = at(2 * t), dx = at(2 * t + 1);
              const double py = double(i * g.stride - g.pad + t / g.kw * g.dilation) + dy;
              const double px = double(j * g.stride - g.pad + t % g.kw * g.dilation) + dx;
              double v = sample(x, n * g.C + ch, g, py, px);
              if (mask) v *= (*mask)[static_cast<std::size_t>((((n * g.OG + og) * taps + t) * oh + i) * ow + j)];
              acc += w[static_cast<std::size_t>((m * cg + ci) * taps + t)] * v;
            }
          }
          y.push_back(acc);
        }
  return y;
}

std::vector<attribute> attrs_of(const geometry& g) {
  return {attr("group", g.G), attr("offset_group", g.OG),
          attr("strides", std::vector<std::int64_t>{g.stride, g.stride}),
          attr("pads", std::vector<std::int64_t>{g.pad, g.pad, g.pad, g.pad}),
          attr("dilations", std::vector<std::int64_t>{g.dilation, g.dilation})};
}
}  // namespace

TEST_CASE("DeformConv: displaced bilinear taps with groups, offset groups, mask and bias", "[conv]") {
  for (const geometry& g : {geometry{1, 2, 5, 6, 3, 3, 3, 1, 1, 1, 1, 1}, geometry{2, 4, 7, 6, 4, 2, 3, 2, 2, 2, 1, 1},
                            geometry{1, 2, 8, 8, 2, 3, 2, 1, 2, 1, 0, 2}}) {
    INFO("C " << g.C << " G " << g.G << " OG " << g.OG << " stride " << g.stride);
    const std::int64_t oh = g.oh(), ow = g.ow(), taps = g.kh * g.kw;
    auto n = [](std::int64_t v) { return static_cast<std::size_t>(v); };
    auto x = test::random_values<double>(n(g.N * g.C * g.H * g.W), -1, 1, 121);
    auto w = test::random_values<double>(n(g.M * g.C / g.G * taps), -1, 1, 122);
    auto off = test::random_values<double>(n(g.N * g.OG * taps * 2 * oh * ow), -1.5, 1.5, 123);
    auto mask = test::random_values<double>(n(g.N * g.OG * taps * oh * ow), 0, 1, 124);
    auto bias = test::random_values<double>(n(g.M), -1, 1, 125);
    std::vector<tensor> in{tensor::from(x, {g.N, g.C, g.H, g.W}), tensor::from(w, {g.M, g.C / g.G, g.kh, g.kw}),
                           tensor::from(off, {g.N, g.OG * taps * 2, oh, ow}), tensor::from(bias, {g.M}),
                           tensor::from(mask, {g.N, g.OG * taps, oh, ow})};
    auto r = test::run_op<ops::DeformConv>(in, attrs_of(g));
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{g.N, g.M, oh, ow});
    test::require_close((*r)[0], reference(g, x, w, off, &mask, bias), 1e-12, 1e-12);

    // Zero offsets, no mask, no bias: a plain convolution (integer taps).
    std::vector<double> zeros(off.size(), 0.0), no_bias(bias.size(), 0.0);
    auto plain =
        test::run_op<ops::DeformConv>({in[0], in[1], tensor::from(zeros, {g.N, g.OG * taps * 2, oh, ow})}, attrs_of(g));
    REQUIRE(plain.ok());
    test::require_close((*plain)[0], reference(g, x, w, zeros, nullptr, no_bias), 1e-12, 1e-12);
  }
}

TEST_CASE("DeformConv rejects offsets that do not match the kernel or the output", "[conv]") {
  auto x = tensor::zeros(dtype::float32, {1, 2, 5, 5});
  auto w = tensor::zeros(dtype::float32, {2, 2, 3, 3});
  auto r = test::run_op<ops::DeformConv>({x, w, tensor::zeros(dtype::float32, {1, 9, 3, 3})});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("offset must be"));
  CHECK_FALSE(test::run_op<ops::DeformConv>({x, w, tensor::zeros(dtype::float32, {1, 18, 4, 4})}).ok());
}
