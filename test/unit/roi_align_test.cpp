// RoiAlign against a direct reference that interpolates each sample point of
// each bin from the spec's formulas; both coordinate modes, avg and max,
// fixed and adaptive sampling; RoiAlign_v10 through a session; bad indices.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "kernels/cpu/roi_align.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
struct settings {
  bool half_pixel = true, max = false;
  std::int64_t oh = 2, ow = 3, ratio = 0;
  float scale = 0.5f;
};

/// Y[r, c, ph, pw] for X (N, C, H, W) as doubles.
std::vector<double> reference(const std::vector<double>& x, const extents& xs, const std::vector<double>& rois,
                              const std::vector<std::int64_t>& batch, const settings& s) {
  const std::int64_t C = xs[1], H = xs[2], W = xs[3];
  // The four corners of (y, x), each with its bilinear weight; none outside.
  auto corners = [&](double y, double xx, std::int64_t plane) {
    if (y < -1 || y > H || xx < -1 || xx > W) return std::vector<double>(4, 0.0);
    y = std::max(y, 0.0), xx = std::max(xx, 0.0);
    std::int64_t y0 = std::min<std::int64_t>(static_cast<std::int64_t>(y), H - 1),
                 x0 = std::min<std::int64_t>(static_cast<std::int64_t>(xx), W - 1);
    if (y0 == H - 1) y = static_cast<double>(y0);
    if (x0 == W - 1) xx = static_cast<double>(x0);
    const std::int64_t y1 = std::min(y0 + 1, H - 1), x1 = std::min(x0 + 1, W - 1);
    const double ly = y - y0, lx = xx - x0;
    auto at = [&](std::int64_t i, std::int64_t j) { return x[static_cast<std::size_t>(plane * H * W + i * W + j)]; };
    return std::vector<double>{(1 - ly) * (1 - lx) * at(y0, x0), (1 - ly) * lx * at(y0, x1), ly * (1 - lx) * at(y1, x0),
                               ly * lx * at(y1, x1)};
  };
  std::vector<double> y;
  for (std::size_t r = 0; r < batch.size(); ++r) {
    const double off = s.half_pixel ? 0.5 : 0.0;
    const double x1 = rois[4 * r] * s.scale - off, y1 = rois[4 * r + 1] * s.scale - off;
    double rw = rois[4 * r + 2] * s.scale - off - x1, rh = rois[4 * r + 3] * s.scale - off - y1;
    if (!s.half_pixel) rw = std::max(rw, 1.0), rh = std::max(rh, 1.0);
    const double bh = rh / s.oh, bw = rw / s.ow;
    const std::int64_t gh = s.ratio ? s.ratio : static_cast<std::int64_t>(std::ceil(bh)),
                       gw = s.ratio ? s.ratio : static_cast<std::int64_t>(std::ceil(bw));
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t ph = 0; ph < s.oh; ++ph)
        for (std::int64_t pw = 0; pw < s.ow; ++pw) {
          double sum = 0, best = 0;
          bool first = true;
          for (std::int64_t iy = 0; iy < gh; ++iy)
            for (std::int64_t ix = 0; ix < gw; ++ix) {
              auto v =
                  corners(y1 + ph * bh + (iy + 0.5) * bh / gh, x1 + pw * bw + (ix + 0.5) * bw / gw, batch[r] * C + c);
              sum += v[0] + v[1] + v[2] + v[3];
              const double m = std::max({v[0], v[1], v[2], v[3]});
              best = first ? m : std::max(best, m);
              first = false;
            }
          y.push_back(s.max ? best : sum / static_cast<double>(std::max<std::int64_t>(gh * gw, 1)));
        }
  }
  return y;
}
}  // namespace

TEST_CASE("RoiAlign: avg and max, both coordinate modes, fixed and adaptive sampling", "[misc]") {
  const extents xs{2, 3, 9, 11};
  auto x = test::random_values<double>(static_cast<std::size_t>(element_count(xs)), -1, 1, 81);
  // Inside, partly outside, tiny, and off the image.
  const std::vector<double> rois{1, 2, 14, 12, -4, -3, 8, 20, 5, 5, 5.5, 6, 30, 25, 40, 30};
  const std::vector<std::int64_t> batch{0, 1, 1, 0};
  for (settings s : {settings{}, settings{false, false, 2, 2, 2, 1.0f}, settings{true, true, 3, 3, 0, 0.5f},
                     settings{false, true, 1, 4, 1, 0.75f}}) {
    INFO("half_pixel " << s.half_pixel << " max " << s.max << " ratio " << s.ratio);
    auto r = test::run_op<ops::RoiAlign>(
        {tensor::from(x, xs), tensor::from(rois, {4, 4}), tensor::from(batch, {4})},
        {attr("coordinate_transformation_mode", std::string(s.half_pixel ? "half_pixel" : "output_half_pixel")),
         attr("mode", std::string(s.max ? "max" : "avg")), attr("output_height", s.oh), attr("output_width", s.ow),
         attr("sampling_ratio", s.ratio), attr("spatial_scale", s.scale)});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{4, 3, s.oh, s.ow});
    test::require_close((*r)[0], reference(x, xs, rois, batch, s), 1e-12, 1e-12);
  }
}

TEST_CASE("RoiAlign_v10 runs as output_half_pixel; bad batch indices fail", "[misc]") {
  const extents xs{1, 2, 5, 5};
  auto x = test::random_values<float>(50, 0, 1, 82);
  std::vector<float> rois{0.5f, 1, 4, 3.5f};
  graph::model_builder m{10};
  auto xi = m.input("X", dtype::float32, xs);
  auto ri = m.input("rois", dtype::float32, {1, 4});
  auto bi = m.input("batch", dtype::int64, {1});
  m.output(m.node("RoiAlign", {xi, ri, bi}, {{"output_height", std::int64_t{2}}, {"output_width", std::int64_t{2}}}));
  auto path = onyx::test::temp_path("onyx_roi_align_v10.onnx");
  REQUIRE(m.save(path).ok());
  basic_session<prebuilt_registry<op_list<ops::RoiAlign, ops::RoiAlign_v10>, backend_list<cpu>>> s(path, {.threads = 1});
  auto batch = tensor::from(std::vector<std::int64_t>{0}, {1});
  auto y =
      s.run({{"X", tensor::from(x, xs)}, {"rois", tensor::from(rois, {1, 4})}, {"batch", batch}}).at(0).as_tensor();
  settings v10{false, false, 2, 2, 0, 1.0f};
  auto expect = reference(std::vector<double>(x.begin(), x.end()), xs, {0.5, 1, 4, 3.5}, {0}, v10);
  test::require_close(y, std::vector<float>(expect.begin(), expect.end()), 1e-5, 1e-6);

  auto bad = test::run_op<ops::RoiAlign>(
      {tensor::from(x, xs), tensor::from(rois, {1, 4}), tensor::from(std::vector<std::int64_t>{1}, {1})});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == errc::out_of_range);
  CHECK_THAT(bad.error().message(), Catch::Contains("batch_indices[0] = 1"));
}
