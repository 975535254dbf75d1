// MatMulInteger, QLinearMatMul and com.microsoft QGemm against plain loops:
// per-tensor and per-row/column zero points and scales, broadcast batches,
// QGemm's transposes, C and both output forms; bad zero points.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/mat_mul_integer.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("MatMulInteger with per-row / per-column zero points and batches", "[misc]") {
  const int B = 3, M = 4, K = 9, N = 5;
  auto a = test::random_values<std::uint8_t>(B * M * K, 0, 255, 91);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 92);
  std::vector<std::uint8_t> za{3, 200, 0, 128};
  std::vector<std::int8_t> zb{-1, 0, 5, 127, -128};
  std::vector<std::int32_t> want(B * M * N);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        std::int32_t s = 0;
        for (int k = 0; k < K; ++k) s += (a[(p * M + i) * K + k] - za[i]) * (b[k * N + j] - zb[j]);
        want[(p * M + i) * N + j] = s;
      }
  thread_pool pool(2);
  auto r = test::run_op<ops::MatMulInteger>(
      {tensor::from(a, {B, M, K}), tensor::from(b, {K, N}), tensor::from(za, {M}), tensor::from(zb, {N})}, {}, 1, &pool);
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{B, M, N});
  test::require_close((*r)[0], want, 0, 0);
  auto bad = test::run_op<ops::MatMulInteger>(
      {tensor::from(a, {B, M, K}), tensor::from(b, {K, N}), tensor::from(std::vector<std::uint8_t>{1, 2}, {2})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("a_zero_point") != std::string::npos);
}

TEST_CASE("QLinearMatMul requantizes with rounding and saturation", "[misc]") {
  const int M = 3, K = 7, N = 4;
  auto a = test::random_values<std::int8_t>(M * K, -128, 127, 93);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 94);
  float sa = 0.02f, sb = 0.03f, sy = 0.5f;
  std::int8_t za = 2, zb = -3, zy = 1;
  std::vector<std::int8_t> want(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      std::int64_t s = 0;
      for (int k = 0; k < K; ++k) s += (a[i * K + k] - za) * (b[k * N + j] - zb);
      double f = float(float(sa * sb) / sy);
      want[i * N + j] = std::int8_t(std::clamp(std::nearbyint(double(s) * f + zy), -128.0, 127.0));
    }
  auto r = test::run_op<ops::QLinearMatMul>({tensor::from(a, {M, K}), tensor::scalar(sa), tensor::scalar(za),
                                             tensor::from(b, {K, N}), tensor::scalar(sb), tensor::scalar(zb),
                                             tensor::scalar(sy), tensor::scalar(zy)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], want, 0, 0);
}

namespace {

// QGemm from the com.microsoft spec, in double: the exact integer sum plus C,
// times alpha a_scale b_scale[j]; with y_scale, divided by it, rounded half to
// even, plus y_zero_point, saturated.
template <class TA, class TB>
std::vector<double> qgemm_reference(const std::vector<TA>& a, const std::vector<TB>& b, int M, int K, int N, bool ta,
                                    bool tb, float alpha, float sa, int za, const std::vector<float>& sb,
                                    const std::vector<int>& zb, const std::vector<std::int32_t>& c, int cm, int cn,
                                    const float* sy, int zy, double lo, double hi) {
  std::vector<double> y(static_cast<std::size_t>(M * N));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < K; ++k) {
        const int av = a[ta ? k * M + i : i * K + k], bv = b[tb ? j * K + k : k * N + j];
        acc += std::int64_t(av - za) * (bv - zb[zb.size() == 1 ? 0 : j]);
      }
      if (!c.empty()) acc += c[i * cm + j * cn];
      const double v = double(acc) * alpha * sa * sb[sb.size() == 1 ? 0 : j];
      y[i * N + j] = sy ? std::clamp(std::nearbyint(v / *sy) + zy, lo, hi) : v;
    }
  return y;
}

}  // namespace

TEST_CASE("QGemm: transposes, per-column B, C broadcast, float and 8-bit Y", "[misc]") {
  const int M = 5, K = 37, N = 19;
  const float alpha = 0.75f, sa = 0.031f;
  const int za = 131;
  auto a = test::random_values<std::uint8_t>(M * K, 0, 255, 301);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 302);
  auto sb = test::random_values<float>(N, 0.002, 0.02, 303);
  std::vector<int> zb(N);
  std::vector<std::int8_t> zb8(N);
  for (int j = 0; j < N; ++j) zb8[j] = static_cast<std::int8_t>(zb[j] = (j * 7) % 11 - 5);
  auto c_full = test::random_values<std::int32_t>(M * N, -5000, 5000, 304);
  thread_pool pool(2);
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (int c_kind = 0; c_kind < 4; ++c_kind)  // none, [N], [M, 1], [M, N]
        for (int out = 0; out < 3; ++out) {       // float, uint8, int8
          INFO("transA " << ta << " transB " << tb << " C " << c_kind << " output " << out);
          std::vector<tensor> in{tensor::from(a, ta ? extents{K, M} : extents{M, K}), tensor::scalar(sa),
                                 tensor::scalar(std::uint8_t(za)), tensor::from(b, tb ? extents{N, K} : extents{K, N}),
                                 tensor::from(sb, {N}), tensor::from(zb8, {N})};
          std::vector<std::int32_t> c;
          int cm = 0, cn = 0;
          if (c_kind == 1) c.assign(c_full.begin(), c_full.begin() + N), cn = 1;
          if (c_kind == 2) c.assign(c_full.begin(), c_full.begin() + M), cm = 1;
          if (c_kind == 3) c = c_full, cm = N, cn = 1;
          const extents c_shape = c_kind == 1 ? extents{N} : c_kind == 2 ? extents{M, 1} : extents{M, N};
          in.push_back(c.empty() ? tensor{} : tensor::from(c, c_shape));
          const float sy = 0.05f;
          const int zy = out == 1 ? 100 : -20;
          if (out > 0) {
            in.push_back(tensor::scalar(sy));
            in.push_back(out == 1 ? tensor::scalar(std::uint8_t(zy)) : tensor::scalar(std::int8_t(zy)));
          }
          auto r = test::run_op<ops::QGemm>(in, {{"alpha", alpha}, {"transA", std::int64_t{ta}}, {"transB", std::int64_t{tb}}},
                                            1, &pool);
          REQUIRE(r.ok());
          const tensor& y = (*r)[0];
          REQUIRE(y.shape() == extents{M, N});
          const double lo = out == 1 ? 0 : -128, hi = out == 1 ? 255 : 127;
          const auto want = qgemm_reference(a, b, M, K, N, ta, tb, alpha, sa, za, sb, zb, c, cm, cn, out ? &sy : nullptr,
                                            zy, lo, hi);
          if (out == 0) {
            CHECK(y.type() == dtype::float32);
            test::require_close(y, std::vector<float>(want.begin(), want.end()), 1e-6, 1e-6);
          } else {
            // The factor is rounded to float32 before the rounding to integers:
            // a value within a hair of .5 may land one step away.
            CHECK(y.type() == (out == 1 ? dtype::uint8 : dtype::int8));
            std::size_t exact = 0;
            for (std::int64_t i = 0; i < y.size(); ++i) {
              const double got = out == 1 ? y.data<std::uint8_t>()[i] : y.data<std::int8_t>()[i];
              CHECK(std::fabs(got - want[i]) <= 1);
              exact += got == want[i];
            }
            CHECK(exact >= static_cast<std::size_t>(y.size()) * 95 / 100);
          }
        }
}

TEST_CASE("QGemm: a constant B packed at prepare gives the unpacked result; bad inputs fail clearly", "[misc]") {
  const int M = 9, K = 70, N = 33;
  auto a = test::random_values<std::int8_t>(M * K, -128, 127, 311);
  auto b = test::random_values<std::uint8_t>(N * K, 0, 255, 312);
  const tensor bias = tensor::from(test::random_values<std::int32_t>(N, -3000, 3000, 313), {N});
  graph::model_builder mb{13};
  mb.import("com.microsoft", 1);
  auto x = mb.input("a", dtype::int8, {M, K});
  auto f = [&](const std::string& n, float v) { return mb.initializer(n, tensor::scalar(v)); };
  mb.output(mb.node({"com.microsoft", "QGemm"},
                    {x, f("sa", 0.02f), mb.initializer("za", tensor::scalar(std::int8_t(-3))),
                     mb.initializer("b", tensor::from(b, {N, K})), f("sb", 0.01f),
                     mb.initializer("zb", tensor::scalar(std::uint8_t(128))),
                     mb.initializer("c", bias), f("sy", 0.2f),
                     mb.initializer("zy", tensor::scalar(std::uint8_t(120)))},
                    {{"transB", std::int64_t{1}}, {"alpha", 1.5f}}));
  auto s = session::open_bytes(mb.proto().SerializeAsString(), {.threads = 2});
  REQUIRE(s.ok());
  std::vector<value> out;
  std::vector<named_value> feed{{"a", value(tensor::from(a, {M, K}))}};
  REQUIRE((*s)->run(feed, out).ok());
  // The same node through run_op: B not constant, read in place.
  auto direct = test::run_op<ops::QGemm>(
      {tensor::from(a, {M, K}), tensor::scalar(0.02f), tensor::scalar(std::int8_t(-3)), tensor::from(b, {N, K}),
       tensor::scalar(0.01f), tensor::scalar(std::uint8_t(128)), bias, tensor::scalar(0.2f),
       tensor::scalar(std::uint8_t(120))},
      {{"transB", std::int64_t{1}}, {"alpha", 1.5f}});
  REQUIRE(direct.ok());
  const auto got = out[0].as_tensor().values<std::uint8_t>(), want = (*direct)[0].values<std::uint8_t>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);

  // y_scale without y_zero_point, and shapes that disagree on K.
  auto half = test::run_op<ops::QGemm>({tensor::from(a, {M, K}), tensor::scalar(0.02f), tensor::scalar(std::int8_t(0)),
                                        tensor::from(b, {N, K}), tensor::scalar(0.01f), tensor{}, tensor{},
                                        tensor::scalar(0.2f)},
                                       {{"transB", std::int64_t{1}}});
  REQUIRE(!half.ok());
  CHECK(half.error().message().find("y_zero_point") != std::string::npos);
  auto wrong = test::run_op<ops::QGemm>({tensor::from(a, {M, K}), tensor::scalar(0.02f), tensor::scalar(std::int8_t(0)),
                                         tensor::from(b, {N, K}), tensor::scalar(0.01f), tensor{}});
  REQUIRE(!wrong.ok());
  CHECK(wrong.error().message().find("disagree on K") != std::string::npos);
}
