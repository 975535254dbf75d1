// CausalConvWithState against the spec's steps written out: concatenate the
// past state (or zeros) and the input, convolve each channel with valid
// padding, apply SiLU, keep the last k - 1 values.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/causal_conv_with_state.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
struct expected {
  std::vector<double> y, state;
};

expected reference(const std::vector<double>& x, std::int64_t B, std::int64_t C, std::int64_t L,
                   const std::vector<double>& w, std::int64_t k, const std::vector<double>* bias,
                   const std::vector<double>* past, bool silu) {
  expected e;
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t c = 0; c < C; ++c) {
      std::vector<double> padded;
      for (std::int64_t j = 0; j < k - 1; ++j) padded.push_back(past ? (*past)[(b * C + c) * (k - 1) + j] : 0.0);
      for (std::int64_t t = 0; t < L; ++t) padded.push_back(x[(b * C + c) * L + t]);
      for (std::int64_t t = 0; t < L; ++t) {
        double v = bias ? (*bias)[c] : 0.0;
        for (std::int64_t j = 0; j < k; ++j) v += w[c * k + j] * padded[t + j];
        e.y.push_back(silu ? v / (1 + std::exp(-v)) : v);
      }
      e.state.insert(e.state.end(), padded.end() - (k - 1), padded.end());
    }
  return e;
}
}  // namespace

TEST_CASE("CausalConvWithState: state, bias, SiLU, short inputs, k = 1", "[conv]") {
  struct scenario {
    std::int64_t B, C, L, k;
    bool bias, past, silu;
  };
  for (auto s : {scenario{2, 3, 7, 4, false, false, false}, scenario{2, 3, 7, 4, true, true, false},
                 scenario{1, 2, 2, 4, true, true, true}, scenario{1, 4, 5, 1, true, false, true},
                 scenario{3, 1, 1, 3, false, true, false}}) {
    INFO("B " << s.B << " C " << s.C << " L " << s.L << " k " << s.k << " bias " << s.bias << " past " << s.past);
    auto x = test::random_values<double>(static_cast<std::size_t>(s.B * s.C * s.L), -2, 2, 91);
    auto w = test::random_values<double>(static_cast<std::size_t>(s.C * s.k), -1, 1, 92);
    auto b = test::random_values<double>(static_cast<std::size_t>(s.C), -1, 1, 93);
    auto p = test::random_values<double>(static_cast<std::size_t>(s.B * s.C * (s.k - 1)), -2, 2, 94);
    auto f = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    std::vector<tensor> in{tensor::from(f(x), {s.B, s.C, s.L}), tensor::from(f(w), {s.C, 1, s.k}),
                           s.bias ? tensor::from(f(b), {s.C}) : tensor{},
                           s.past ? tensor::from(f(p), {s.B, s.C, s.k - 1}) : tensor{}};
    auto r = test::run_op<ops::CausalConvWithState>(in, {attr("activation", std::string(s.silu ? "silu" : "none"))}, 2);
    REQUIRE(r.ok());
    auto e = reference(x, s.B, s.C, s.L, w, s.k, s.bias ? &b : nullptr, s.past ? &p : nullptr, s.silu);
    CHECK((*r)[1].shape() == extents{s.B, s.C, s.k - 1});
    test::require_close((*r)[0], f(e.y), 1e-5, 1e-5);
    test::require_close((*r)[1], f(e.state), 0, 0);
  }
}

TEST_CASE("CausalConvWithState rejects a past_state of the wrong length and bad activations", "[conv]") {
  auto x = tensor::zeros(dtype::float32, {1, 2, 5});
  auto w = tensor::zeros(dtype::float32, {2, 1, 3});
  auto r = test::run_op<ops::CausalConvWithState>({x, w, tensor{}, tensor::zeros(dtype::float32, {1, 2, 3})}, {}, 2);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("past_state must be [1,2,2]"));
  CHECK_FALSE(test::run_op<ops::CausalConvWithState>({x, w}, {attr("activation", std::string("relu"))}, 2).ok());
  CHECK_FALSE(test::run_op<ops::CausalConvWithState>({x, tensor::zeros(dtype::float32, {3, 1, 3})}, {}, 2).ok());
}
