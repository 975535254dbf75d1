// RNN, GRU and LSTM against a scalar reference of one cell step loop:
// bidirectional RNN with sequence_lens, GRU both reset modes, LSTM with and
// without peepholes; and an unknown activation name.
#include <catch2/catch.hpp>

#include "kernels/cpu/recurrent.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
const std::int64_t S = 4, B = 3, I = 5, H = 6;
double sig(double x) { return 1 / (1 + std::exp(-x)); }

// One direction of a cell over X [S, B, I] with weights W [G*H, I], R [G*H, H],
// bias [2*G*H], P [3H]; kind 0 RNN, 1 GRU, 2 GRU lbr, 3 LSTM. Writes Y [S, dirs, B, H] at dir d.
void reference(int kind, bool reverse, int d, int dirs, const std::vector<float>& x, const float* W, const float* R,
               const float* bias, const float* P, const std::vector<std::int32_t>& lens, std::vector<float>& y) {
  const int G = kind == 0 ? 1 : kind == 3 ? 4 : 3;
  for (std::int64_t b = 0; b < B; ++b) {
    std::vector<double> h(H, 0.0), c(H, 0.0);
    for (std::int64_t k = 0; k < lens[b]; ++k) {
      const std::int64_t t = reverse ? lens[b] - 1 - k : k;
      auto xw = [&](int g, std::int64_t j) {
        double s = bias[g * H + j];
        for (std::int64_t i = 0; i < I; ++i) s += double(x[(t * B + b) * I + i]) * W[(g * H + j) * I + i];
        return s;
      };
      auto hr = [&](int g, std::int64_t j, const std::vector<double>& hv) {
        double s = 0;
        for (std::int64_t i = 0; i < H; ++i) s += hv[i] * R[(g * H + j) * H + i];
        return s;
      };
      const float* rb = bias + G * H;
      std::vector<double> nh(H), nc(H);
      std::vector<double> rh(H);
      for (std::int64_t j = 0; j < H; ++j) rh[j] = sig(xw(1 % G, j) + hr(1 % G, j, h) + rb[(1 % G) * H + j]) * h[j];
      for (std::int64_t j = 0; j < H; ++j) {
        if (kind == 0) {
          nh[j] = std::tanh(xw(0, j) + hr(0, j, h) + rb[j]);
        } else if (kind <= 2) {
          const double z = sig(xw(0, j) + hr(0, j, h) + rb[j]), r = sig(xw(1, j) + hr(1, j, h) + rb[H + j]);
          const double hh = kind == 2 ? std::tanh(xw(2, j) + r * (hr(2, j, h) + rb[2 * H + j]))
                                      : std::tanh(xw(2, j) + hr(2, j, rh) + rb[2 * H + j]);
          nh[j] = (1 - z) * hh + z * h[j];
        } else {
          const double i = sig(xw(0, j) + hr(0, j, h) + rb[j] + P[j] * c[j]);
          const double f = sig(xw(2, j) + hr(2, j, h) + rb[2 * H + j] + P[2 * H + j] * c[j]);
          const double cc = std::tanh(xw(3, j) + hr(3, j, h) + rb[3 * H + j]);
          nc[j] = f * c[j] + i * cc;
          const double o = sig(xw(1, j) + hr(1, j, h) + rb[H + j] + P[H + j] * nc[j]);
          nh[j] = o * std::tanh(nc[j]);
        }
      }
      h = nh;
      c = nc;
      for (std::int64_t j = 0; j < H; ++j) y[((t * dirs + d) * B + b) * H + j] = float(h[j]);
    }
  }
}

template <class Op> void check(int kind, int dirs, std::vector<attribute> attrs, bool peepholes = true) {
  const int G = kind == 0 ? 1 : kind == 3 ? 4 : 3;
  auto x = test::random_values<float>(S * B * I, -1, 1, 51);
  auto w = test::random_values<float>(dirs * G * H * I, -0.5, 0.5, 52);
  auto r = test::random_values<float>(dirs * G * H * H, -0.5, 0.5, 53);
  auto bias = test::random_values<float>(dirs * 2 * G * H, -0.5, 0.5, 54);
  auto p = test::random_values<float>(dirs * 3 * H, -0.5, 0.5, 55);
  if (!peepholes) std::fill(p.begin(), p.end(), 0.0f);
  std::vector<std::int32_t> lens{4, 2, 3};
  std::vector<float> want(S * dirs * B * H, 0.0f);
  for (int d = 0; d < dirs; ++d)
    reference(kind, d == 1, d, dirs, x, w.data() + d * G * H * I, r.data() + d * G * H * H,
              bias.data() + d * 2 * G * H, p.data() + d * 3 * H, lens, want);
  std::vector<tensor> in{tensor::from(x, {S, B, I}), tensor::from(w, {dirs, G * H, I}),
                         tensor::from(r, {dirs, G * H, H}), tensor::from(bias, {dirs, 2 * G * H}),
                         tensor::from(lens, {B})};
  if (kind == 3 && peepholes) in.insert(in.end(), {tensor{}, tensor{}, tensor::from(p, {dirs, 3 * H})});
  attrs.push_back(attr("hidden_size", H));
  if (dirs == 2) attrs.push_back(attr("direction", std::string("bidirectional")));
  auto out = test::run_op<Op>(in, attrs, 2);
  REQUIRE(out.ok());
  test::require_close(out.value()[0], want, 1e-4, 1e-5);
}
}  // namespace

TEST_CASE("RNN bidirectional with sequence_lens", "[recurrent]") { check<ops::RNN>(0, 2, {}); }
TEST_CASE("GRU both reset modes", "[recurrent]") {
  check<ops::GRU>(1, 1, {});
  check<ops::GRU>(2, 2, {attr("linear_before_reset", 1)});
}
TEST_CASE("LSTM with peepholes", "[recurrent]") { check<ops::LSTM>(3, 2, {}); }
// No peepholes and the default activations: the gates run as whole rows
// through the ISA logistic and tanh (and W, R were packed at prepare).
TEST_CASE("LSTM without peepholes", "[recurrent]") { check<ops::LSTM>(3, 2, {}, false); }

TEST_CASE("RNN: unknown activation and bad W fail", "[recurrent]") {
  auto x = tensor::from(test::random_values<float>(S * B * I), {S, B, I});
  auto w = tensor::from(test::random_values<float>(H * I), {1, H, I});
  auto r = tensor::from(test::random_values<float>(H * H), {1, H, H});
  auto bad = test::run_op<ops::RNN>({x, w, r}, {attribute{"activations", std::vector<std::string>{"Swish"}}}, 2);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("Swish"));
  auto w2 = tensor::from(test::random_values<float>(H * (I + 1)), {1, H, I + 1});
  CHECK(!test::run_op<ops::RNN>({x, w2, r}, {}, 2).ok());
}
