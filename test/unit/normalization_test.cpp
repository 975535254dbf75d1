// BatchNormalization (and fused::BatchNormalization with its clamp), LRN, InstanceNormalization, LayerNormalization,
// GroupNormalization and LpNormalization against plain double references;
// MeanVarianceNormalization (expanded) through the prebuilt session.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include "kernels/cpu/normalization.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;
using onyx::test::random_values;
using onyx::test::f32;


// Mean and biased variance of x[i0 + k*step] for k < n.
void moments(const std::vector<double>& x, std::int64_t i0, std::int64_t n, double& mean, double& var) {
  mean = 0, var = 0;
  for (std::int64_t k = 0; k < n; ++k) mean += x[i0 + k];
  mean /= n;
  for (std::int64_t k = 0; k < n; ++k) var += (x[i0 + k] - mean) * (x[i0 + k] - mean);
  var /= n;
}

}  // namespace

TEST_CASE("BatchNormalization", "[normalization]") {
  for (extents shape : {extents{2, 3, 5, 7}, extents{3, 4}, extents{1, 5, 3, 2, 3}}) {
    const std::int64_t C = shape[1], P = element_count(shape) / (shape[0] * C);
    auto x = random_values<double>(static_cast<std::size_t>(element_count(shape)), -3, 3, 1);
    auto s = random_values<double>(C, 0.5, 2, 2), b = random_values<double>(C, -1, 1, 3),
         m = random_values<double>(C, -1, 1, 4), v = random_values<double>(C, 0.1, 2, 5);
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::int64_t ch = (static_cast<std::int64_t>(i) / P) % C;
      y[i] = (x[i] - m[ch]) / std::sqrt(v[ch] + 1e-3) * s[ch] + b[ch];
    }
    auto r = onyx::test::run_op<ops::BatchNormalization>(
        {tensor::from(f32(x), shape), tensor::from(f32(s), {C}), tensor::from(f32(b), {C}), tensor::from(f32(m), {C}),
         tensor::from(f32(v), {C})},
        {attr("epsilon", 1e-3f)});
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], f32(y), 1e-5, 1e-5);
  }
  // float16 X with float32 parameters (opset 15 allows distinct types).
  std::vector<float16_t> xh{to_float16(1.0f), to_float16(-2.0f)};
  auto r = onyx::test::run_op<ops::BatchNormalization>(
      {tensor::from(xh, {1, 2}), tensor::from<float>({2, 1}, {2}), tensor::from<float>({0, 1}, {2}),
       tensor::from<float>({0, 0}, {2}), tensor::from<float>({1, 1}, {2})},
      {attr("epsilon", 0.0f)});
  REQUIRE(r.ok());
  CHECK(to_float((*r)[0].values<float16_t>()[0]) == 2.0f);
  CHECK(to_float((*r)[0].values<float16_t>()[1]) == -1.0f);

  auto bad = onyx::test::run_op<ops::BatchNormalization>(
      {tensor::zeros(dtype::float32, {1, 3, 2}), tensor::zeros(dtype::float32, {4}), tensor::zeros(dtype::float32, {3}),
       tensor::zeros(dtype::float32, {3}), tensor::zeros(dtype::float32, {3})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("scale") != std::string::npos);
  // Opsets 1-8's saved-statistics outputs (five outputs) are refused.
  bad = onyx::test::run_op<ops::BatchNormalization>(
      {tensor::zeros(dtype::float32, {1, 3, 2}), tensor::zeros(dtype::float32, {3}), tensor::zeros(dtype::float32, {3}),
       tensor::zeros(dtype::float32, {3}), tensor::zeros(dtype::float32, {3})},
      {}, 5);
  REQUIRE(!bad.ok());
  REQUIRE(bad.error().code() == errc::unsupported);
}

TEST_CASE("fused::BatchNormalization clamps as it writes", "[normalization]") {
  // Planes of 1, 15, 33 and 70 floats: vector tails at every ISA width.
  for (extents shape : {extents{2, 3, 1, 1}, extents{1, 4, 3, 5}, extents{2, 2, 3, 11}, extents{1, 3, 7, 10}}) {
    const std::int64_t C = shape[1], P = element_count(shape) / (shape[0] * C);
    auto x = random_values<double>(static_cast<std::size_t>(element_count(shape)), -3, 3, 11);
    auto s = random_values<double>(C, 0.5, 2, 12), b = random_values<double>(C, -1, 1, 13),
         m = random_values<double>(C, -1, 1, 14), v = random_values<double>(C, 0.1, 2, 15);
    const std::vector<tensor> in{tensor::from(f32(x), shape), tensor::from(f32(s), {C}), tensor::from(f32(b), {C}),
                                 tensor::from(f32(m), {C}), tensor::from(f32(v), {C})};
    for (auto [name, lo, hi] : {std::tuple{"Relu", 0.0, HUGE_VAL}, std::tuple{"Clip", -0.5, 1.25}}) {
      std::vector<double> y(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        const std::int64_t ch = (static_cast<std::int64_t>(i) / P) % C;
        y[i] = std::clamp((x[i] - m[ch]) / std::sqrt(v[ch] + 1e-3) * s[ch] + b[ch], lo, hi);
      }
      std::vector<onyx::attribute> a{attr("epsilon", 1e-3f), attr("activation", std::string(name))};
      if (std::string(name) == "Clip") {
        a.push_back(attr("activation_min", -0.5f));
        a.push_back(attr("activation_max", 1.25f));
      }
      auto r = onyx::test::run_op<ops::fused::BatchNormalization>(in, a);
      REQUIRE(r.ok());
      onyx::test::require_close((*r)[0], f32(y), 1e-5, 1e-5);
    }
  }
  // float64 with Relu: the clamp in double.
  auto r = onyx::test::run_op<ops::fused::BatchNormalization>(
      {tensor::from<double>({-1.0, 0.25, 3.0, -4.0}, {1, 2, 2}), tensor::from<double>({1, 2}, {2}),
       tensor::from<double>({0, 1}, {2}), tensor::from<double>({0, 0}, {2}), tensor::from<double>({1, 1}, {2})},
      {attr("epsilon", 0.0f), attr("activation", std::string("Relu"))});
  REQUIRE(r.ok());
  const auto y64 = (*r)[0].values<double>();
  CHECK(std::vector<double>(y64.begin(), y64.end()) == std::vector<double>{0.0, 0.25, 7.0, 0.0});
  // A NaN passes the clamp, as Relu passes it.
  r = onyx::test::run_op<ops::fused::BatchNormalization>(
      {tensor::from<float>({std::nanf(""), -1.0f}, {1, 1, 2}), tensor::from<float>({1}, {1}), tensor::from<float>({0}, {1}),
       tensor::from<float>({0}, {1}), tensor::from<float>({1}, {1})},
      {attr("epsilon", 0.0f), attr("activation", std::string("Relu"))});
  REQUIRE(r.ok());
  CHECK(std::isnan((*r)[0].values<float>()[0]));
  CHECK((*r)[0].values<float>()[1] == 0.0f);
  auto bad = onyx::test::run_op<ops::fused::BatchNormalization>(
      {tensor::zeros(dtype::float32, {1, 3, 2}), tensor::zeros(dtype::float32, {3}), tensor::zeros(dtype::float32, {3}),
       tensor::zeros(dtype::float32, {3}), tensor::zeros(dtype::float32, {3})},
      {attr("activation", std::string("Tanh"))});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("Tanh") != std::string::npos);
}

TEST_CASE("BatchNormalization in training mode: batch statistics and running outputs", "[normalization]") {
  // x [1, 2, 2]: channel 0 {1, 3} (mean 2, biased var 1), channel 1 {0, 4}
  // (mean 2, var 4). scale {1, 2}, B {0, 1}, epsilon 0, momentum 0.9,
  // input_mean {0, 10}, input_var {1, 1}. By hand: Y = {-1, 1, -1, 3};
  // running_mean = {0 * 0.9 + 2 * 0.1, 10 * 0.9 + 2 * 0.1} = {0.2, 9.2};
  // running_var = {1 * 0.9 + 1 * 0.1, 1 * 0.9 + 4 * 0.1} = {1, 1.3}.
  auto f = [](std::vector<float> v, extents e) { return tensor::from(v, e); };
  auto r = onyx::test::run_op<ops::BatchNormalization>(
      {f({1, 3, 0, 4}, {1, 2, 2}), f({1, 2}, {2}), f({0, 1}, {2}), f({0, 10}, {2}), f({1, 1}, {2})},
      {attr("training_mode", std::int64_t{1}), attr("epsilon", 0.0f), attr("momentum", 0.9f)}, 3);
  REQUIRE(r.ok());
  onyx::test::require_close((*r)[0], std::vector<float>{-1, 1, -1, 3}, 1e-6, 1e-6);
  onyx::test::require_close((*r)[1], std::vector<float>{0.2f, 9.2f}, 1e-6, 1e-6);
  onyx::test::require_close((*r)[2], std::vector<float>{1.0f, 1.3f}, 1e-6, 1e-6);
  // Only Y: the same normalization by the batch's statistics.
  auto y = onyx::test::run_op<ops::BatchNormalization>(
      {f({1, 3, 0, 4}, {1, 2, 2}), f({1, 2}, {2}), f({0, 1}, {2}), f({0, 10}, {2}), f({1, 1}, {2})},
      {attr("training_mode", std::int64_t{1}), attr("epsilon", 0.0f)});
  REQUIRE(y.ok());
  onyx::test::require_close((*y)[0], std::vector<float>{-1, 1, -1, 3}, 1e-6, 1e-6);
}

TEST_CASE("LRN", "[normalization]") {
  for (std::int64_t size : {1, 3, 4, 5}) {
    extents shape{2, 7, 3, 5};
    auto x = random_values<double>(static_cast<std::size_t>(element_count(shape)), -2, 2, 6);
    const std::int64_t C = 7, P = 15;
    std::vector<double> y(x.size());
    for (std::int64_t n = 0; n < 2; ++n)
      for (std::int64_t c = 0; c < C; ++c)
        for (std::int64_t p = 0; p < P; ++p) {
          double sq = 0;
          for (std::int64_t k = c - (size - 1) / 2; k <= c + size / 2; ++k)
            if (k >= 0 && k < C) sq += x[(n * C + k) * P + p] * x[(n * C + k) * P + p];
          y[(n * C + c) * P + p] = x[(n * C + c) * P + p] / std::pow(2.0 + 0.1 / size * sq, 0.6);
        }
    auto r = onyx::test::run_op<ops::LRN>({tensor::from(f32(x), shape)}, {attr("size", size), attr("alpha", 0.1f),
                                                                          attr("beta", 0.6f), attr("bias", 2.0f)});
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], f32(y), 1e-5, 1e-6);
  }
  REQUIRE(!onyx::test::run_op<ops::LRN>({tensor::zeros(dtype::float32, {1, 2, 2})}).ok());  // size is required
}

TEST_CASE("InstanceNormalization and GroupNormalization", "[normalization]") {
  extents shape{2, 6, 5, 3};
  const std::int64_t C = 6, P = 15;
  auto x = random_values<double>(static_cast<std::size_t>(element_count(shape)), -2, 5, 7);
  auto s = random_values<double>(C, 0.5, 2, 8), b = random_values<double>(C, -1, 1, 9);
  for (std::int64_t G : {1, 2, 3, 6, 0}) {  // 0: InstanceNormalization
    const std::int64_t groups = G ? G : C, len = C / groups * P;
    std::vector<double> y(x.size());
    for (std::int64_t row = 0; row < 2 * groups; ++row) {
      double mean, var;
      moments(x, row * len, len, mean, var);
      for (std::int64_t k = 0; k < len; ++k) {
        const std::int64_t i = row * len + k, ch = (i / P) % C;
        y[i] = (x[i] - mean) / std::sqrt(var + 1e-5) * s[ch] + b[ch];
      }
    }
    std::vector<tensor> in{tensor::from(f32(x), shape), tensor::from(f32(s), {C}), tensor::from(f32(b), {C})};
    auto r = G ? onyx::test::run_op<ops::GroupNormalization>(in, {attr("num_groups", G)})
               : onyx::test::run_op<ops::InstanceNormalization>(in);
    INFO("groups " << G);
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
  }
  auto bad = onyx::test::run_op<ops::GroupNormalization>(
      {tensor::zeros(dtype::float32, shape), tensor::zeros(dtype::float32, {C}), tensor::zeros(dtype::float32, {C})},
      {attr("num_groups", std::int64_t{4})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("divisible") != std::string::npos);
  REQUIRE(!onyx::test::run_op<ops::InstanceNormalization>({tensor::zeros(dtype::float32, shape),
                                                           tensor::zeros(dtype::float32, {5}),
                                                           tensor::zeros(dtype::float32, {C})})
               .ok());
}

TEST_CASE("LayerNormalization with Mean and InvStdDev", "[normalization]") {
  extents shape{3, 4, 17};
  auto x = random_values<double>(static_cast<std::size_t>(element_count(shape)), -2, 2, 10);
  for (std::int64_t axis : {-1, 1, 0}) {
    const std::int64_t len = axis == 0 ? 204 : axis == 1 ? 68 : 17;
    extents block(shape.begin() + (axis < 0 ? 2 : axis), shape.end());
    auto s = random_values<double>(static_cast<std::size_t>(len), 0.5, 2, 11);
    // B broadcast along the first normalized axis: shape [last] (or a scalar vector).
    auto b = random_values<double>(17, -1, 1, 12);
    std::vector<double> y(x.size()), mean_v, inv_v;
    for (std::int64_t row = 0; row < 204 / len; ++row) {
      double mean, var;
      moments(x, row * len, len, mean, var);
      mean_v.push_back(mean);
      inv_v.push_back(1 / std::sqrt(var + 1e-5));
      for (std::int64_t k = 0; k < len; ++k)
        y[row * len + k] = (x[row * len + k] - mean) * inv_v.back() * s[k] + b[k % 17];
    }
    auto r = onyx::test::run_op<ops::LayerNormalization>(
        {tensor::from(f32(x), shape), tensor::from(f32(s), block), tensor::from(f32(b), {17})}, {attr("axis", axis)},
        3);
    INFO("axis " << axis);
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
    onyx::test::require_close((*r)[1], f32(mean_v), 1e-5, 1e-6);
    onyx::test::require_close((*r)[2], f32(inv_v), 1e-5, 1e-6);
    extents stat(shape.begin(), shape.begin() + (axis < 0 ? 2 : axis));
    stat.resize(3, 1);
    CHECK((*r)[1].shape() == stat);
  }
  auto bad = onyx::test::run_op<ops::LayerNormalization>(
      {tensor::zeros(dtype::float32, shape), tensor::zeros(dtype::float32, {16})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("Scale") != std::string::npos);
}

TEST_CASE("LpNormalization", "[normalization]") {
  extents shape{3, 5, 4};
  auto x = random_values<double>(60, -2, 2, 13);
  for (std::int64_t p : {1, 2})
    for (std::int64_t axis : {0, 1, -1}) {
      const std::int64_t ax = axis < 0 ? 2 : axis;
      std::int64_t inner = 1;
      for (std::size_t d = ax + 1; d < 3; ++d) inner *= shape[d];
      std::vector<double> y(60);
      for (std::int64_t i = 0; i < 60; ++i) {
        const std::int64_t pos = (i / inner) % shape[ax], base = i - pos * inner;
        double norm = 0;
        for (std::int64_t j = 0; j < shape[ax]; ++j) {
          const double v = x[base + j * inner];
          norm += p == 1 ? std::abs(v) : v * v;
        }
        y[i] = x[i] / (p == 1 ? norm : std::sqrt(norm));
      }
      auto r =
          onyx::test::run_op<ops::LpNormalization>({tensor::from(f32(x), shape)}, {attr("axis", axis), attr("p", p)});
      REQUIRE(r.ok());
      onyx::test::require_close((*r)[0], f32(y), 1e-5, 1e-6);
    }
  REQUIRE(
      !onyx::test::run_op<ops::LpNormalization>({tensor::zeros(dtype::float32, shape)}, {attr("p", std::int64_t{3})})
           .ok());
}

TEST_CASE("MeanVarianceNormalization over default and given axes", "[normalization]") {
  const extents shape{2, 3, 4, 5};
  auto x = onyx::test::random_values<float>(120, -3, 3, 71);
  for (auto axes : {std::vector<std::int64_t>{0, 2, 3}, std::vector<std::int64_t>{1, -1}}) {
    graph::model_builder m{13};
    auto in = m.input("X", dtype::float32, shape);
    graph::graph_builder::attributes attrs;
    if (axes[0] != 0) attrs.push_back({"axes", axes});
    m.output(m.node("MeanVarianceNormalization", {in}, std::move(attrs)));
    auto path = onyx::test::temp_path("onyx_mvn_test.onnx");
    REQUIRE(m.save(path).ok());
    session s(path, {.threads = 1});
    auto y = s.run({{"X", tensor::from(x, shape)}}).at(0).as_tensor();
    // Reference: mean and biased variance over the axes, one group per value
    // of the other axes; y = (x - mean) / (sqrt(var) + 1e-9).
    std::vector<bool> reduced(4, false);
    for (auto a : axes) reduced[static_cast<std::size_t>(a < 0 ? a + 4 : a)] = true;
    auto key = [&](std::int64_t i) {
      std::int64_t k = 0;
      for (int d = 3, rest = static_cast<int>(i); d >= 0; --d) {
        const std::int64_t coord = rest % shape[d];
        rest /= static_cast<int>(shape[d]);
        if (!reduced[d]) k = k * 16 + coord + 1;  // dims are < 16
      }
      return k;
    };
    std::map<std::int64_t, std::pair<double, double>> sums;  // key -> (sum, sum of squares)
    std::map<std::int64_t, int> counts;
    for (std::int64_t i = 0; i < 120; ++i) {
      sums[key(i)].first += x[i];
      sums[key(i)].second += double(x[i]) * x[i];
      ++counts[key(i)];
    }
    std::vector<float> expect;
    for (std::int64_t i = 0; i < 120; ++i) {
      const double n = counts[key(i)], mean = sums[key(i)].first / n, var = sums[key(i)].second / n - mean * mean;
      expect.push_back(static_cast<float>((x[i] - mean) / (std::sqrt(var) + 1e-9)));
    }
    onyx::test::require_close(y, expect, 1e-4, 1e-5);
  }
  graph::model_builder bad{13};
  auto in = bad.input("X", dtype::float32, shape);
  bad.output(bad.node("MeanVarianceNormalization", {in}, {{"axes", std::vector<std::int64_t>{0, 7}}}));
  auto path = onyx::test::temp_path("onyx_mvn_bad_axes.onnx");
  REQUIRE(bad.save(path).ok());
  try {
    session s(path, {.threads = 1});
    FAIL("axes out of range were accepted");
  } catch (const onyx::error& e) {
    INFO(e.what());
    // The failing node is one of the expansion's; the message names the model's node too.
    CHECK_THAT(std::string(e.what()), Catch::Contains("(expanded from MeanVarianceNormalization 'n0')") &&
                                          Catch::Contains("axis 7 is out of range"));
  }
}
