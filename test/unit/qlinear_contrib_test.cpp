// The com.microsoft QLinear* ops (QLinearAdd, QLinearMul, QLinearSigmoid,
// QLinearLeakyRelu, QLinearGlobalAveragePool, QLinearConcat) against a scalar
// reference written from ONNX Runtime's ContribOperators.md: dequantize
// (scale * (q - zero_point)), compute in double, requantize (round half to
// even, add the zero point, saturate). The kernels compute in float32 as ORT
// does, so a reference value within 1e-4 of a rounding tie may land on
// either neighbour; everywhere else the results must be equal. Both 8-bit
// types, broadcasting, odd sizes, absent zero points, saturation, the table
// of every input value, and errors; then a model with a com.microsoft import
// through the loader and session.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "kernels/cpu/qlinear_binary.hpp"
#include "kernels/cpu/qlinear_concat.hpp"
#include "kernels/cpu/qlinear_global_average_pool.hpp"
#include "kernels/cpu/qlinear_lookup.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;


template <class T> tensor random_q(const extents& shape, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
  tensor t = tensor::zeros(dtype_of<T>, shape);
  for (auto& v : t.values<T>()) v = static_cast<T>(d(rng));
  return t;
}

tensor scalar(float v) { return tensor::from<float>({v}, {}); }
template <class T> tensor scalar_q(int v) { return tensor::from<T>({static_cast<T>(v)}, {}); }

/// The spec's requantization of a real value r at (scale, zero point).
template <class T> int requantize(double r, double scale, int zp) {
  const double q = std::nearbyint(r / scale) + zp;
  return static_cast<int>(std::clamp<double>(q, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()));
}

/// True when r / scale is within 1e-4 of a .5 tie (float32 may round either way).
bool near_tie(double r, double scale) {
  const double v = r / scale;
  return std::fabs(std::fabs(v - std::floor(v)) - 0.5) < 1e-4;
}

/// Compares got (T) with the reference; near ties may differ by one.
template <class T> void check_close(const tensor& got, const std::vector<double>& real, double scale, int zp) {
  REQUIRE(got.size() == static_cast<std::int64_t>(real.size()));
  int ties = 0;
  for (std::size_t i = 0; i < real.size(); ++i) {
    const int want = requantize<T>(real[i], scale, zp);
    const int have = got.data<T>()[i];
    if (near_tie(real[i], scale)) {
      ++ties;
      CHECK(std::abs(have - want) <= 1);
    } else {
      INFO("element " << i << " real " << real[i]);
      CHECK(have == want);
    }
  }
  CHECK(ties < static_cast<int>(real.size()) / 10 + 1);  // the exact comparison covers the rest
}

/// Element i of a broadcast input of shape `in` inside output `out` (numpy rules).
std::int64_t broadcast_index(const extents& out, const extents& in, std::int64_t i) {
  std::int64_t idx = 0, stride = 1;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::size_t d = in.size() - 1 - k;
    const std::size_t od = out.size() - 1 - k;
    std::int64_t outer = 1;
    for (std::size_t j = od + 1; j < out.size(); ++j) outer *= out[j];
    const std::int64_t coord = (i / outer) % out[od];
    idx += (in[d] == 1 ? 0 : coord) * stride;
    stride *= in[d];
  }
  return idx;
}

}  // namespace

TEMPLATE_TEST_CASE("QLinearAdd and QLinearMul: broadcasting against the spec's arithmetic", "", std::uint8_t,
                   std::int8_t) {
  using T = TestType;
  const extents sa{3, 1, 5}, sb{4, 1}, so{3, 4, 5};
  const tensor a = random_q<T>(sa, 1), b = random_q<T>(sb, 2);
  const float as = 0.037f, bs = 0.021f, cs = 0.05f;
  const int az = std::is_signed_v<T> ? -3 : 131, bz = std::is_signed_v<T> ? 7 : 120, cz = std::is_signed_v<T> ? 2 : 125;
  for (bool mul : {false, true}) {
    std::vector<tensor> in{a, scalar(as), scalar_q<T>(az), b, scalar(bs), scalar_q<T>(bz), scalar(cs), scalar_q<T>(cz)};
    auto r = mul ? run_op<ops::QLinearMul>(in) : run_op<ops::QLinearAdd>(in);
    REQUIRE(r.ok());
    const tensor& c = (*r)[0];
    REQUIRE(c.shape() == so);
    REQUIRE(c.type() == dtype_of<T>);
    std::vector<double> real;
    for (std::int64_t i = 0; i < element_count(so); ++i) {
      const double x = double(as) * (a.data<T>()[broadcast_index(so, sa, i)] - az);
      const double y = double(bs) * (b.data<T>()[broadcast_index(so, sb, i)] - bz);
      real.push_back(mul ? x * y : x + y);
    }
    check_close<T>(c, real, cs, cz);
  }
}

TEMPLATE_TEST_CASE("QLinearAdd and QLinearMul: absent zero points, scalars and saturation", "", std::uint8_t,
                   std::int8_t) {
  using T = TestType;
  constexpr int hi = std::numeric_limits<T>::max(), lo = std::numeric_limits<T>::lowest();
  // All-max operands at a small output scale saturate at the top; the zero
  // points are absent (0) except C's, which is omitted entirely (7 inputs).
  tensor a = tensor::zeros(dtype_of<T>, {37});
  for (auto& v : a.values<T>()) v = static_cast<T>(hi);
  auto r = run_op<ops::QLinearAdd>({a, scalar(1.0f), tensor{}, tensor::from<T>({static_cast<T>(hi)}, {1}), scalar(1.0f),
                                    tensor{}, scalar(0.5f)});
  REQUIRE(r.ok());
  for (T v : (*r)[0].template values<T>()) CHECK(int(v) == hi);
  if constexpr (std::is_signed_v<T>) {
    // min * max is negative: saturates at the bottom.
    tensor m = tensor::zeros(dtype_of<T>, {37});
    for (auto& v : m.values<T>()) v = static_cast<T>(lo);
    auto p = run_op<ops::QLinearMul>({m, scalar(1.0f), tensor{}, tensor::from<T>({static_cast<T>(hi)}, {}), scalar(1.0f),
                                      tensor{}, scalar(1.0f)});
    REQUIRE(p.ok());
    for (T v : (*p)[0].template values<T>()) CHECK(int(v) == lo);
  }
  // Absent zero points in a random case, against the reference.
  const tensor x = random_q<T>({2, 3, 7}, 5), y = random_q<T>({7}, 6);
  auto q = run_op<ops::QLinearMul>({x, scalar(0.1f), tensor{}, y, scalar(0.2f), tensor{}, scalar(3.0f), tensor{}});
  REQUIRE(q.ok());
  std::vector<double> real;
  for (std::int64_t i = 0; i < 42; ++i) real.push_back(0.1 * x.data<T>()[i] * 0.2f * y.data<T>()[i % 7]);
  check_close<T>((*q)[0], real, 3.0f, 0);
}

TEMPLATE_TEST_CASE("QLinearSigmoid and QLinearLeakyRelu: every input value", "", std::uint8_t, std::int8_t) {
  using T = TestType;
  // All 256 values (the whole table) plus a repeated tail: 300 elements.
  tensor x = tensor::zeros(dtype_of<T>, {300});
  for (int i = 0; i < 300; ++i) x.data<T>()[i] = static_cast<T>(static_cast<std::uint8_t>(i % 256));
  const float xs = 0.0625f, ys_sig = 1.0f / 256, ys_relu = 0.047f;  // no exact ties
  const int xz = std::is_signed_v<T> ? 10 : 140, yz_sig = std::is_signed_v<T> ? -128 : 0, yz_relu = std::is_signed_v<T> ? 20 : 100;
  auto s = run_op<ops::QLinearSigmoid>({x, scalar(xs), scalar_q<T>(xz), scalar(ys_sig), scalar_q<T>(yz_sig)});
  REQUIRE(s.ok());
  std::vector<double> real;
  for (int i = 0; i < 300; ++i) real.push_back(1.0 / (1.0 + std::exp(-double(xs) * (x.data<T>()[i] - xz))));
  check_close<T>((*s)[0], real, ys_sig, yz_sig);

  auto l = run_op<ops::QLinearLeakyRelu>({x, scalar(xs), scalar_q<T>(xz), scalar(ys_relu), scalar_q<T>(yz_relu)},
                                         {attr("alpha", 0.3f)});
  REQUIRE(l.ok());
  real.clear();
  for (int i = 0; i < 300; ++i) {
    const double v = double(xs) * (x.data<T>()[i] - xz);
    real.push_back(v < 0 ? double(0.3f) * v : v);
  }
  check_close<T>((*l)[0], real, ys_relu, yz_relu);
  // Default alpha (0.01) and absent zero points.
  auto d = run_op<ops::QLinearLeakyRelu>({x, scalar(xs), tensor{}, scalar(ys_relu)});
  REQUIRE(d.ok());
  real.clear();
  for (int i = 0; i < 300; ++i) {
    const double v = double(xs) * x.data<T>()[i];
    real.push_back(v < 0 ? double(0.01f) * v : v);
  }
  check_close<T>((*d)[0], real, ys_relu, 0);
}

TEMPLATE_TEST_CASE("QLinearGlobalAveragePool: NCHW and channels_last", "", std::uint8_t, std::int8_t) {
  using T = TestType;
  const std::int64_t n = 2, c = 3, h = 5, w = 7;
  const float xs = 0.02f, ys = 0.015f;
  const int xz = std::is_signed_v<T> ? 5 : 128, yz = std::is_signed_v<T> ? -4 : 120;
  for (bool last : {false, true}) {
    const extents shape = last ? extents{n, h, w, c} : extents{n, c, h, w};
    const tensor x = random_q<T>(shape, last ? 11 : 12);
    auto r = run_op<ops::QLinearGlobalAveragePool>({x, scalar(xs), scalar_q<T>(xz), scalar(ys), scalar_q<T>(yz)},
                                                   {attr("channels_last", last ? 1 : 0)});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == (last ? extents{n, 1, 1, c} : extents{n, c, 1, 1}));
    std::vector<double> real;
    for (std::int64_t img = 0; img < n; ++img)
      for (std::int64_t ch = 0; ch < c; ++ch) {
        double sum = 0;
        for (std::int64_t p = 0; p < h * w; ++p) {
          const std::int64_t i = last ? (img * h * w + p) * c + ch : (img * c + ch) * h * w + p;
          sum += double(xs) * (x.data<T>()[i] - xz);
        }
        real.push_back(sum / double(h * w));
      }
    check_close<T>((*r)[0], real, ys, yz);
  }
  // All-max input: the mean is the max, requantized with saturation.
  tensor full = tensor::zeros(dtype_of<T>, {1, 2, 3, 3});
  for (auto& v : full.values<T>()) v = std::numeric_limits<T>::max();
  auto s = run_op<ops::QLinearGlobalAveragePool>({full, scalar(1.0f), scalar_q<T>(0), scalar(0.25f), scalar_q<T>(0)});
  REQUIRE(s.ok());
  for (T v : (*s)[0].template values<T>()) CHECK(v == std::numeric_limits<T>::max());
}

TEMPLATE_TEST_CASE("QLinearConcat: requantized inputs along an axis", "", std::uint8_t, std::int8_t) {
  using T = TestType;
  const float ys = 0.04f;
  const int yz = std::is_signed_v<T> ? 3 : 128;
  for (int axis : {1, -1, 0}) {
    const int ax = axis < 0 ? 2 : axis;
    extents s0{2, 3, 5}, s1 = s0, s2 = s0;
    s1[ax] = 4;
    s2[ax] = 1;
    const tensor x0 = random_q<T>(s0, 21), x1 = random_q<T>(s1, 22), x2 = random_q<T>(s2, 23);
    // x0 has Y's parameters (copied), x1 and x2 others (requantized).
    const std::vector<float> scales{ys, 0.013f, 0.11f};
    const std::vector<int> zps{yz, std::is_signed_v<T> ? -20 : 90, std::is_signed_v<T> ? 0 : 200};
    auto r = run_op<ops::QLinearConcat>({scalar(ys), scalar_q<T>(yz), x0, scalar(scales[0]), scalar_q<T>(zps[0]), x1,
                                         scalar(scales[1]), scalar_q<T>(zps[1]), x2, scalar(scales[2]),
                                         scalar_q<T>(zps[2])},
                                        {attr("axis", axis)});
    REQUIRE(r.ok());
    extents so = s0;
    so[ax] = s0[ax] + s1[ax] + s2[ax];
    REQUIRE((*r)[0].shape() == so);
    // Reference: walk the output, find the input and its element.
    std::vector<double> real;
    const std::vector<const tensor*> xs{&x0, &x1, &x2};
    for (std::int64_t i = 0; i < element_count(so); ++i) {
      std::array<std::int64_t, 3> idx{i / (so[1] * so[2]), (i / so[2]) % so[1], i % so[2]};
      int k = 0;
      while (idx[ax] >= xs[k]->shape()[ax]) idx[ax] -= xs[k++]->shape()[ax];
      const auto& sh = xs[k]->shape();
      const std::int64_t j = (idx[0] * sh[1] + idx[1]) * sh[2] + idx[2];
      real.push_back(double(scales[k]) * (xs[k]->data<T>()[j] - zps[k]));
    }
    check_close<T>((*r)[0], real, ys, yz);
  }
}

TEST_CASE("QLinear* contrib ops: bad parameters are clear errors") {
  const tensor x = random_q<std::uint8_t>({4}, 1);
  // A per-channel scale is not per-tensor.
  auto pc = run_op<ops::QLinearSigmoid>({x, tensor::from<float>({0.1f, 0.2f}, {2}), tensor{}, scalar(0.1f)});
  REQUIRE_FALSE(pc.ok());
  CHECK(pc.error().message().find("X_scale must be a scalar") != std::string::npos);
  // A zero point of another type.
  auto zt = run_op<ops::QLinearAdd>({x, scalar(0.1f), scalar_q<std::int8_t>(0), x, scalar(0.1f), tensor{}, scalar(0.1f)});
  REQUIRE_FALSE(zt.ok());
  CHECK(zt.error().message().find("A_zero_point has type int8") != std::string::npos);
  // A zero scale.
  auto zs = run_op<ops::QLinearLeakyRelu>({x, scalar(0.0f), tensor{}, scalar(0.1f)});
  REQUIRE_FALSE(zs.ok());
  CHECK(zs.error().message().find("X_scale must be a positive finite number") != std::string::npos);
  // QLinearConcat: no axis; a broken triple.
  auto na = run_op<ops::QLinearConcat>({scalar(0.1f), scalar_q<std::uint8_t>(0), x, scalar(0.1f), scalar_q<std::uint8_t>(0)});
  REQUIRE_FALSE(na.ok());
  CHECK(na.error().message().find("axis attribute is required") != std::string::npos);
  auto bt = run_op<ops::QLinearConcat>({scalar(0.1f), scalar_q<std::uint8_t>(0), x, scalar(0.1f), scalar_q<std::uint8_t>(0), x},
                                       {attr("axis", 0)});
  REQUIRE_FALSE(bt.ok());
  // GlobalAveragePool needs spatial dims.
  auto gp = run_op<ops::QLinearGlobalAveragePool>(
      {random_q<std::uint8_t>({2, 3}, 1), scalar(0.1f), scalar_q<std::uint8_t>(0), scalar(0.1f), scalar_q<std::uint8_t>(0)});
  REQUIRE_FALSE(gp.ok());
  CHECK(gp.error().message().find("rank 3 or more") != std::string::npos);
}

TEST_CASE("QLinear* contrib ops: a model importing com.microsoft loads and runs") {
  graph::model_builder b{13};
  b.import("com.microsoft", 1);
  auto x = b.input("x", dtype::uint8, {1, 2, 2, 2});
  auto xs = b.initializer("xs", tensor::from<float>({0.1f}, {}));
  auto xz = b.initializer("xz", tensor::from<std::uint8_t>({128}, {}));
  auto ys = b.initializer("ys", tensor::from<float>({1.0f / 256}, {}));
  auto yz = b.initializer("yz", tensor::from<std::uint8_t>({0}, {}));
  auto s = b.node({"com.microsoft", "QLinearSigmoid"}, {x, xs, xz, ys, yz});
  auto p = b.node({"com.microsoft", "QLinearGlobalAveragePool"}, {s, ys, yz, ys, yz});
  b.output(p);
  const auto path = onyx::test::temp_path("qlinear_contrib.onnx");
  REQUIRE(b.save(path).ok());
  session sess(path, {.threads = 1});
  const std::vector<std::uint8_t> xv{0, 60, 100, 128, 140, 200, 230, 255};
  auto out = sess.run({{"x", tensor::from<std::uint8_t>(xv, {1, 2, 2, 2})}});
  const tensor& y = out[0].as_tensor();
  REQUIRE(y.shape() == extents{1, 2, 1, 1});
  for (int ch = 0; ch < 2; ++ch) {
    // Sigmoid per element (requantized at 1/256), then the mean of the dequantized values.
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
      const double v = 1.0 / (1.0 + std::exp(-0.1 * (xv[ch * 4 + i] - 128.0)));
      sum += requantize<std::uint8_t>(v, 1.0 / 256, 0) / 256.0;
    }
    CHECK(int(y.data<std::uint8_t>()[ch]) == requantize<std::uint8_t>(sum / 4, 1.0 / 256, 0));
  }
}
