// GridSample: 2-D bilinear with zeros padding (both align_corners), nearest
// and border padding, against a scalar reference written from the spec's
// formulas; a grid of the wrong rank. AffineGrid against hand-computed grids.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/affine_grid.hpp"
#include "kernels/cpu/grid_sample.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
struct plane {
  std::vector<double> v;
  int h, w;
  double at(int i, int j, bool border) const {
    if (border) i = std::clamp(i, 0, h - 1), j = std::clamp(j, 0, w - 1);
    return i >= 0 && i < h && j >= 0 && j < w ? v[i * w + j] : 0.0;
  }
};
double unnormalize(double g, int len, bool align) { return align ? (g + 1) / 2 * (len - 1) : ((g + 1) * len - 1) / 2; }
}  // namespace

TEST_CASE("GridSample bilinear, nearest and border against a reference", "[misc]") {
  const int C = 2, H = 4, W = 5, PH = 3, PW = 6;
  auto xv = test::random_values<double>(C * H * W, -1, 1, 141);
  auto gv = test::random_values<double>(PH * PW * 2, -1.3, 1.3, 142);
  for (int align : {0, 1})
    for (const char* mode : {"linear", "nearest"})
      for (const char* padding : {"zeros", "border"}) {
        INFO(mode << " " << padding << " align " << align);
        bool border = std::string(padding) == "border";
        std::vector<double> want;
        for (int c = 0; c < C; ++c) {
          plane im{std::vector<double>(xv.begin() + c * H * W, xv.begin() + (c + 1) * H * W), H, W};
          for (int p = 0; p < PH * PW; ++p) {
            double xs = unnormalize(gv[p * 2], W, align), ys = unnormalize(gv[p * 2 + 1], H, align);
            if (border) {  // out-of-range coordinates clamp to the edge pixels first
              double lx = align ? 0 : -0.5, hx = align ? W - 1 : W - 0.5, ly = align ? 0 : -0.5, hy = align ? H - 1 : H - 0.5;
              if (xs < lx || xs > hx) xs = std::clamp(xs, 0.0, double(W - 1));
              if (ys < ly || ys > hy) ys = std::clamp(ys, 0.0, double(H - 1));
            }
            if (std::string(mode) == "nearest") {
              want.push_back(im.at(int(std::nearbyint(ys)), int(std::nearbyint(xs)), border));
              continue;
            }
            int x0 = int(std::floor(xs)), y0 = int(std::floor(ys));
            double fx = xs - x0, fy = ys - y0;
            want.push_back((1 - fy) * ((1 - fx) * im.at(y0, x0, border) + fx * im.at(y0, x0 + 1, border)) +
                           fy * ((1 - fx) * im.at(y0 + 1, x0, border) + fx * im.at(y0 + 1, x0 + 1, border)));
          }
        }
        auto r = test::run_op<ops::GridSample>(
            {tensor::from(xv, {1, C, H, W}), tensor::from(gv, {1, PH, PW, 2})},
            {test::attr("align_corners", align), test::attr("mode", std::string(mode)),
             test::attr("padding_mode", std::string(padding))});
        REQUIRE(r.ok());
        CHECK((*r)[0].shape() == extents{1, C, PH, PW});
        test::require_close((*r)[0], want, 1e-12, 1e-12);
      }
}

TEST_CASE("GridSample rejects a grid of the wrong shape and an unknown mode", "[misc]") {
  auto x = tensor::from(std::vector<float>(16, 0), {1, 1, 4, 4});
  auto r = test::run_op<ops::GridSample>({x, tensor::from(std::vector<float>(6, 0), {1, 2, 3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("grid") != std::string::npos);
  auto m = test::run_op<ops::GridSample>({x, tensor::from(std::vector<float>(8, 0), {1, 2, 2, 2})},
                                         {test::attr("mode", std::string("area"))});
  REQUIRE(!m.ok());
  CHECK(m.error().message().find("mode") != std::string::npos);
}

TEST_CASE("AffineGrid: identity and swapped, scaled, shifted axes, 2-D and 3-D", "[misc]") {
  using onyx::test::attr;
  // 2-D, align_corners: x over W = 3 is {-1, 0, 1}, y over H = 2 is {-1, 1}.
  // Batch 0 is the identity; batch 1 maps (x, y) to (y + 0.5, 2x).
  auto theta = tensor::from(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 1, 0.5f, 2, 0, 0}, {2, 2, 3});
  auto size = tensor::from(std::vector<std::int64_t>{2, 5, 2, 3}, {4});
  auto r = onyx::test::run_op<ops::AffineGrid>({theta, size}, {attr("align_corners", std::int64_t{1})});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{2, 2, 3, 2});
  std::vector<float> expect;
  for (int n = 0; n < 2; ++n)
    for (float y : {-1.0f, 1.0f})
      for (float x : {-1.0f, 0.0f, 1.0f}) {
        if (n == 0) expect.insert(expect.end(), {x, y});
        else expect.insert(expect.end(), {y + 0.5f, 2 * x});
      }
  onyx::test::require_close((*r)[0], expect, 1e-6, 1e-6);

  // 3-D without align_corners: pixel centers, e.g. W = 2 gives {-0.5, 0.5}.
  auto theta3 = tensor::from(std::vector<double>{1, 0, 0, 0.25, 0, 1, 0, 0, 0, 0, 1, -1}, {1, 3, 4});
  auto size3 = tensor::from(std::vector<std::int64_t>{1, 1, 1, 2, 2}, {5});
  auto r3 = onyx::test::run_op<ops::AffineGrid>({theta3, size3});
  REQUIRE(r3.ok());
  REQUIRE((*r3)[0].shape() == extents{1, 1, 2, 2, 3});
  std::vector<double> expect3;  // z over D = 1 is {0}
  for (double y : {-0.5, 0.5})
    for (double x : {-0.5, 0.5}) expect3.insert(expect3.end(), {x + 0.25, y, -1.0});
  onyx::test::require_close((*r3)[0], expect3, 1e-12, 1e-12);
}

TEST_CASE("AffineGrid rejects a theta that does not match size", "[misc]") {
  auto theta = tensor::zeros(dtype::float32, {2, 2, 3});
  auto r = onyx::test::run_op<ops::AffineGrid>({theta, tensor::from(std::vector<std::int64_t>{2, 1, 2, 2, 2}, {5})});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("theta"));
  CHECK_FALSE(onyx::test::run_op<ops::AffineGrid>({theta, tensor::from(std::vector<std::int64_t>{2, 1, 2}, {3})}).ok());
}
