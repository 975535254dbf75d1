// Resize against a direct N-d reference: every output element is the sum,
// over the product of the per-axis neighbourhoods, of the weights times the
// input, with weights from the spec's per-ratio coefficient formulas.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "kernels/cpu/resize.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {

struct ref_axis {
  std::int64_t in, out;
  double scale, roi0 = 0, roi1 = 1;
};

struct ref_options {
  std::string mode = "nearest", transform = "half_pixel", rounding = "round_prefer_floor";
  double A = -0.75, extrapolation = 0;
  bool exclude_outside = false;
};

double ref_source(const ref_options& o, const ref_axis& a, double x) {
  double len = a.scale * static_cast<double>(a.in), last = static_cast<double>(a.in - 1);
  if (o.transform == "asymmetric") return x / a.scale;
  if (o.transform == "align_corners") return len == 1 ? 0 : x * last / (len - 1);
  if (o.transform == "pytorch_half_pixel") return a.out > 1 ? (x + 0.5) / a.scale - 0.5 : 0;
  if (o.transform == "tf_crop_and_resize")
    return len == 1 ? 0.5 * (a.roi0 + a.roi1) * last : a.roi0 * last + x * (a.roi1 - a.roi0) * last / (len - 1);
  return (x + 0.5) / a.scale - 0.5;
}

/// (index, weight) pairs of one output position; empty when extrapolated.
std::vector<std::pair<std::int64_t, double>> ref_taps(const ref_options& o, const ref_axis& a, std::int64_t x) {
  double src = ref_source(o, a, static_cast<double>(x));
  if (o.transform == "tf_crop_and_resize" && (src < 0 || src > static_cast<double>(a.in - 1))) return {};
  auto clamp = [&](std::int64_t i) { return std::clamp<std::int64_t>(i, 0, a.in - 1); };
  std::int64_t xi = static_cast<std::int64_t>(std::floor(src));
  double ratio = src == std::floor(src) ? 1.0 : src - std::floor(src);
  if (o.mode == "nearest") {
    bool up = o.rounding == "ceil" || (o.rounding == "round_prefer_ceil" && ratio >= 0.5) ||
              (o.rounding == "round_prefer_floor" && ratio > 0.5);
    if (ratio == 1.0) return {{clamp(xi), 1.0}};
    return {{clamp(xi + (up ? 1 : 0)), 1.0}};
  }
  // Neighbours: ratio 1 (an integer source) counts as the right end of the
  // interval starting one to the left.
  std::int64_t left = ratio == 1.0 ? xi - 1 : xi;
  std::vector<std::int64_t> idx;
  std::vector<double> w;
  if (o.mode == "linear") {
    idx = {left, left + 1};
    w = {1 - ratio, ratio};
  } else {
    double A = o.A, r = ratio;
    idx = {left - 1, left, left + 1, left + 2};
    w = {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A, ((A + 2) * r - (A + 3)) * r * r + 1,
         ((A + 2) * (1 - r) - (A + 3)) * (1 - r) * (1 - r) + 1,
         ((A * (2 - r) - 5 * A) * (2 - r) + 8 * A) * (2 - r) - 4 * A};
  }
  if (o.exclude_outside) {
    double s = 0;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      if (idx[k] < 0 || idx[k] >= a.in) w[k] = 0;
      s += w[k];
    }
    for (auto& v : w) v /= s;
  }
  std::vector<std::pair<std::int64_t, double>> out;
  for (std::size_t k = 0; k < idx.size(); ++k) out.push_back({clamp(idx[k]), w[k]});
  return out;
}

std::vector<double> reference(const std::vector<double>& x, const std::vector<ref_axis>& axes, const ref_options& o) {
  const std::size_t r = axes.size();
  extents out_shape;
  for (auto& a : axes) out_shape.push_back(a.out);
  std::vector<double> y(static_cast<std::size_t>(element_count(out_shape)));
  std::vector<std::int64_t> pos(r, 0);
  for (std::size_t flat = 0; flat < y.size(); ++flat) {
    std::int64_t rem = static_cast<std::int64_t>(flat);
    for (std::size_t k = r; k-- > 0;) pos[k] = rem % out_shape[k], rem /= out_shape[k];
    std::vector<std::vector<std::pair<std::int64_t, double>>> taps;
    bool outside = false;
    for (std::size_t k = 0; k < r; ++k) {
      taps.push_back(ref_taps(o, axes[k], pos[k]));
      if (taps.back().empty()) outside = true;
    }
    if (outside) {
      y[flat] = o.extrapolation;
      continue;
    }
    double sum = 0;
    std::function<void(std::size_t, std::int64_t, double)> walk = [&](std::size_t k, std::int64_t off, double w) {
      if (k == r) {
        sum += w * x[static_cast<std::size_t>(off)];
        return;
      }
      for (auto [i, wi] : taps[k]) walk(k + 1, off * axes[k].in + i, w * wi);
    };
    walk(0, 0, 1.0);
    y[flat] = sum;
  }
  return y;
}

tensor floats_tensor(const std::vector<float>& v) { return tensor::from(v, {static_cast<std::int64_t>(v.size())}); }

/// Runs Resize with `scales` (or `sizes` when scales is empty) on float32.
void check_f32(const extents& shape, const std::vector<float>& scales, const std::vector<std::int64_t>& sizes,
               const ref_options& o, std::vector<attribute> attrs, const std::vector<float>& roi = {}) {
  auto xv = test::random_values<float>(static_cast<std::size_t>(element_count(shape)), -2, 2, 7);
  tensor x = tensor::from(xv, shape);
  attrs.push_back(attr("mode", o.mode));
  attrs.push_back(attr("coordinate_transformation_mode", o.transform));
  std::vector<tensor> in{x, roi.empty() ? tensor{} : floats_tensor(roi), scales.empty() ? tensor{} : floats_tensor(scales)};
  if (!sizes.empty()) in.push_back(ops::int64_tensor(sizes));
  auto y = test::run_op<ops::Resize>(in, attrs);
  REQUIRE(y.ok());
  std::vector<ref_axis> axes;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    ref_axis a{shape[i], 0, 0};
    if (!scales.empty()) {
      a.scale = scales[i];
      a.out = static_cast<std::int64_t>(std::floor(double(scales[i]) * double(shape[i])));
    } else {
      a.out = sizes[i];
      a.scale = double(sizes[i]) / double(shape[i]);
    }
    if (!roi.empty()) a.roi0 = roi[i], a.roi1 = roi[shape.size() + i];
    axes.push_back(a);
  }
  std::vector<double> xd(xv.begin(), xv.end());
  auto ref = reference(xd, axes, o);
  extents want;
  for (auto& a : axes) want.push_back(a.out);
  REQUIRE((*y)[0].shape() == want);
  test::require_close((*y)[0], std::vector<float>(ref.begin(), ref.end()), 1e-4, 1e-5);
}

}  // namespace

TEST_CASE("Resize nearest: every rounding and transform, ranks 1-4", "[resize]") {
  for (std::string rounding : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})
    for (std::string transform : {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"}) {
      ref_options o;
      o.rounding = rounding;
      o.transform = transform;
      INFO(rounding << " " << transform);
      check_f32({7}, {1.7f}, {}, o, {attr("nearest_mode", rounding)});
      check_f32({2, 3, 5, 7}, {1, 1, 2.5f, 0.6f}, {}, o, {attr("nearest_mode", rounding)});
      check_f32({3, 4, 5}, {}, {5, 3, 11}, o, {attr("nearest_mode", rounding)});
    }
}

TEST_CASE("Resize nearest moves integers exactly", "[resize]") {
  std::vector<std::int64_t> xv(2 * 3 * 3);
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = (std::int64_t{1} << 60) + static_cast<std::int64_t>(i);
  auto y = test::run_op<ops::Resize>({tensor::from(xv, {2, 3, 3}), tensor{}, floats_tensor({1, 2, 2})},
                                     {attr("coordinate_transformation_mode", std::string("asymmetric")),
                                      attr("nearest_mode", std::string("floor"))});
  REQUIRE(y.ok());
  REQUIRE((*y)[0].shape() == extents{2, 6, 6});
  const auto* v = (*y)[0].data<std::int64_t>();
  for (std::int64_t n = 0; n < 2; ++n)
    for (std::int64_t i = 0; i < 6; ++i)
      for (std::int64_t j = 0; j < 6; ++j) REQUIRE(v[(n * 6 + i) * 6 + j] == xv[(n * 3 + i / 2) * 3 + j / 2]);
}

// Whole-factor upsampling (each input element written f times, rows that
// repeat the row above copied) on a pool of 2, so that the copied rows also
// meet the edges of the pool's chunks; and a factor that is whole on one axis
// only, and a downsample, through the same path.
TEST_CASE("Resize nearest by whole factors, rows copied, on a pool", "[resize]") {
  onyx::thread_pool pool(2);
  for (auto [h, w, fh, fw] : {std::tuple{37, 29, 2, 2}, {5, 70, 3, 2}, {9, 11, 2, 3}, {8, 8, 1, 4}, {12, 10, 2, 1}}) {
    INFO(h << "x" << w << " by " << fh << "x" << fw);
    std::vector<std::uint8_t> xv(static_cast<std::size_t>(3 * h * w));
    for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<std::uint8_t>(i * 7 + i / 13);
    auto y = test::run_op<ops::Resize>(
        {tensor::from(xv, {1, 3, h, w}), tensor{}, floats_tensor({1, 1, float(fh), float(fw)})},
        {attr("coordinate_transformation_mode", std::string("asymmetric")), attr("nearest_mode", std::string("floor"))},
        1, &pool);
    REQUIRE(y.ok());
    const std::int64_t oh = h * fh, ow = w * fw;
    REQUIRE((*y)[0].shape() == extents{1, 3, oh, ow});
    const auto* v = (*y)[0].data<std::uint8_t>();
    std::int64_t wrong = 0;
    for (std::int64_t c = 0; c < 3; ++c)
      for (std::int64_t i = 0; i < oh; ++i)
        for (std::int64_t j = 0; j < ow; ++j)
          wrong += v[(c * oh + i) * ow + j] != xv[static_cast<std::size_t>((c * h + i / fh) * w + j / fw)];
    CHECK(wrong == 0);
  }
}

TEST_CASE("Resize linear: fused NCHW path, general passes, odd sizes", "[resize]") {
  for (std::string transform : {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"}) {
    ref_options o;
    o.mode = "linear";
    o.transform = transform;
    INFO(transform);
    check_f32({2, 3, 5, 7}, {1, 1, 2, 2}, {}, o, {});           // fused last-two-axes path
    check_f32({1, 2, 9, 13}, {}, {1, 2, 4, 6}, o, {});          // downsample, fused
    check_f32({3, 5, 4}, {1, 1.5f, 1}, {}, o, {});              // one middle axis
    check_f32({3, 5, 4, 3}, {}, {2, 7, 4, 5}, o, {});           // three passes
    check_f32({17}, {}, {33}, o, {});
  }
}

TEST_CASE("Resize cubic: coefficient a, exclude_outside, align_corners", "[resize]") {
  ref_options o;
  o.mode = "cubic";
  check_f32({1, 2, 6, 5}, {1, 1, 1.5f, 2}, {}, o, {});
  o.A = -0.5;
  o.exclude_outside = true;
  check_f32({1, 2, 6, 5}, {1, 1, 0.5f, 1.4f}, {}, o, {attr("cubic_coeff_a", -0.5f), attr("exclude_outside", 1)});
  o = {};
  o.mode = "cubic";
  o.transform = "align_corners";
  check_f32({2, 7, 3}, {}, {3, 10, 3}, o, {});
}

TEST_CASE("Resize tf_crop_and_resize extrapolates outside the roi", "[resize]") {
  ref_options o;
  o.mode = "linear";
  o.transform = "tf_crop_and_resize";
  o.extrapolation = 10;
  check_f32({1, 1, 4, 6}, {}, {1, 1, 3, 5}, o, {attr("extrapolation_value", 10.0f)},
            {0, 0, 0.4f, -0.2f, 1, 1, 1.2f, 0.9f});
  o.mode = "nearest";
  check_f32({1, 1, 4, 6}, {}, {1, 1, 5, 3}, o, {attr("extrapolation_value", 10.0f)},
            {0, 0, -0.3f, 0.1f, 1, 1, 0.8f, 1.3f});
}

TEST_CASE("Resize axes and keep_aspect_ratio_policy", "[resize]") {
  tensor x = tensor::from(test::random_values<float>(2 * 4 * 6), {1, 2, 4, 6});
  auto y = test::run_op<ops::Resize>({x, tensor{}, tensor{}, ops::int64_tensor({7, 7})},
                                     {attr("axes", std::vector<std::int64_t>{2, 3}),
                                      attr("keep_aspect_ratio_policy", std::string("not_larger"))});
  REQUIRE(y.ok());
  CHECK((*y)[0].shape() == extents{1, 2, 5, 7});  // scale min(7/4, 7/6); 4 * 7/6 = 4.67 rounds to 5
  y = test::run_op<ops::Resize>({x, tensor{}, tensor{}, ops::int64_tensor({7, 7})},
                                {attr("axes", std::vector<std::int64_t>{3, 2}),
                                 attr("keep_aspect_ratio_policy", std::string("not_smaller"))});
  REQUIRE(y.ok());
  CHECK((*y)[0].shape() == extents{1, 2, 7, 11});  // scale 7/4; 6 * 7/4 = 10.5 rounds up
}

TEST_CASE("Resize float64 and float16 linear", "[resize]") {
  auto xv = test::random_values<double>(3 * 5 * 4, -1, 1, 3);
  std::vector<ref_axis> axes{{3, 3, 1}, {5, 8, 1.6}, {4, 7, 1.75}};
  ref_options o;
  o.mode = "linear";
  auto ref = reference(xv, axes, o);
  auto y = test::run_op<ops::Resize>({tensor::from(xv, {3, 5, 4}), tensor{}, floats_tensor({1, 1.6f, 1.75f})},
                                     {attr("mode", std::string("linear"))});
  REQUIRE(y.ok());
  REQUIRE((*y)[0].shape() == extents{3, 8, 7});
  // 1.6f and 1.75f as float differ from 1.6 in the 8th digit.
  test::require_close((*y)[0], ref, 1e-6, 1e-6);

  std::vector<float16_t> h;
  for (double v : xv) h.push_back(to_float16(static_cast<float>(v)));
  std::vector<double> hd;
  for (auto v : h) hd.push_back(to_float(v));
  ref = reference(hd, axes, o);
  y = test::run_op<ops::Resize>({tensor::from(h, {3, 5, 4}), tensor{}, floats_tensor({1, 1.6f, 1.75f})},
                                {attr("mode", std::string("linear"))});
  REQUIRE(y.ok());
  for (std::size_t i = 0; i < ref.size(); ++i)
    REQUIRE(to_float((*y)[0].data<float16_t>()[i]) == Approx(ref[i]).margin(2e-3));
}

TEST_CASE("Resize rejects bad arguments", "[resize]") {
  tensor x = tensor::from(test::random_values<float>(24), {2, 3, 4});
  auto y = test::run_op<ops::Resize>({x, tensor{}, floats_tensor({1, 2})});
  REQUIRE(!y.ok());
  CHECK_THAT(y.error().message(), Catch::Contains("scales has 2 entries, expected 3"));
  y = test::run_op<ops::Resize>({x, tensor{}, floats_tensor({1, 2, 2}), ops::int64_tensor({2, 3, 4})});
  REQUIRE(!y.ok());
  CHECK_THAT(y.error().message(), Catch::Contains("only one of scales and sizes"));
  std::vector<std::int32_t> iv(24, 1);
  y = test::run_op<ops::Resize>({tensor::from(iv, {2, 3, 4}), tensor{}, floats_tensor({1, 2, 2})},
                                {attr("mode", std::string("linear"))});
  REQUIRE(!y.ok());
  CHECK_THAT(y.error().message(), Catch::Contains("floating-point"));
  y = test::run_op<ops::Resize>({x, tensor{}, floats_tensor({1, 2, 2})}, {attr("mode", std::string("bicubic"))});
  REQUIRE(!y.ok());
  CHECK_THAT(y.error().message(), Catch::Contains("mode must be nearest, linear or cubic"));
}
