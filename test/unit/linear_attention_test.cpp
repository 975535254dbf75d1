// LinearAttention against the spec's recurrence written out in double, for
// each update rule, grouped-query heads, a past state, both decay and beta
// layouts; missing or forbidden decay/beta inputs fail.
#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/cpu/linear_attention.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
struct setup {
  std::string rule;
  std::int64_t B, T, hq, hkv, dk, dv;
  bool past, per_key_decay, shared_beta;
  float scale;
};

struct expected {
  std::vector<double> y, state;
};

expected reference(const setup& s, const std::vector<double>& q, const std::vector<double>& k,
                   const std::vector<double>& v, const std::vector<double>& past, const std::vector<double>& decay,
                   const std::vector<double>& beta) {
  const bool gated = s.rule == "gated" || s.rule == "gated_delta", delta = s.rule == "delta" || s.rule == "gated_delta";
  const double scale = s.scale != 0 ? s.scale : 1 / std::sqrt(double(s.dk));
  expected e;
  e.y.assign(static_cast<std::size_t>(s.B * s.T * s.hq * s.dv), 0.0);
  for (std::int64_t b = 0; b < s.B; ++b)
    for (std::int64_t h = 0; h < s.hkv; ++h) {
      // S[d][m], d over key dims, m over value dims.
      std::vector<std::vector<double>> S(s.dk, std::vector<double>(s.dv, 0.0));
      if (s.past)
        for (std::int64_t d = 0; d < s.dk; ++d)
          for (std::int64_t m = 0; m < s.dv; ++m) S[d][m] = past[((b * s.hkv + h) * s.dk + d) * s.dv + m];
      for (std::int64_t t = 0; t < s.T; ++t) {
        auto K = [&](std::int64_t d) { return k[((b * s.T + t) * s.hkv + h) * s.dk + d]; };
        std::vector<double> V(s.dv);
        for (std::int64_t m = 0; m < s.dv; ++m) V[m] = v[((b * s.T + t) * s.hkv + h) * s.dv + m];
        if (gated)
          for (std::int64_t d = 0; d < s.dk; ++d) {
            const double g =
                s.per_key_decay ? decay[((b * s.T + t) * s.hkv + h) * s.dk + d] : decay[(b * s.T + t) * s.hkv + h];
            for (auto& x : S[d]) x *= std::exp(g);
          }
        if (delta) {
          const double bb = s.shared_beta ? beta[b * s.T + t] : beta[(b * s.T + t) * s.hkv + h];
          std::vector<double> nv(s.dv);
          for (std::int64_t m = 0; m < s.dv; ++m) {
            double r = 0;
            for (std::int64_t d = 0; d < s.dk; ++d) r += S[d][m] * K(d);
            nv[m] = bb * (V[m] - r);
          }
          V = nv;
        }
        for (std::int64_t d = 0; d < s.dk; ++d)
          for (std::int64_t m = 0; m < s.dv; ++m) S[d][m] += K(d) * V[m];
        for (std::int64_t head = h * (s.hq / s.hkv); head < (h + 1) * (s.hq / s.hkv); ++head)
          for (std::int64_t m = 0; m < s.dv; ++m) {
            double acc = 0;
            for (std::int64_t d = 0; d < s.dk; ++d) acc += q[((b * s.T + t) * s.hq + head) * s.dk + d] * S[d][m];
            e.y[((b * s.T + t) * s.hq + head) * s.dv + m] = scale * acc;
          }
      }
      for (auto& row : S) e.state.insert(e.state.end(), row.begin(), row.end());
    }
  return e;
}
}  // namespace

TEST_CASE("LinearAttention: every update rule, GQA, past state, decay and beta layouts", "[attention]") {
  for (const setup& s : {setup{"linear", 2, 3, 2, 2, 4, 3, false, false, false, 0.0f},
                         setup{"gated", 1, 4, 4, 2, 3, 5, true, false, false, 0.5f},
                         setup{"delta", 2, 2, 2, 1, 4, 4, true, false, true, 0.0f},
                         setup{"gated_delta", 2, 5, 3, 3, 2, 3, true, true, false, 0.0f}}) {
    INFO(s.rule);
    auto n = [](std::int64_t x) { return static_cast<std::size_t>(x); };
    auto q = test::random_values<double>(n(s.B * s.T * s.hq * s.dk), -1, 1, 101);
    auto k = test::random_values<double>(n(s.B * s.T * s.hkv * s.dk), -1, 1, 102);
    auto v = test::random_values<double>(n(s.B * s.T * s.hkv * s.dv), -1, 1, 103);
    auto past = test::random_values<double>(n(s.B * s.hkv * s.dk * s.dv), -1, 1, 104);
    auto decay = test::random_values<double>(n(s.B * s.T * s.hkv * (s.per_key_decay ? s.dk : 1)), -0.5, 0, 105);
    auto beta = test::random_values<double>(n(s.B * s.T * (s.shared_beta ? 1 : s.hkv)), 0, 1, 106);
    auto f = [](const std::vector<double>& x, extents shape) {
      return tensor::from(std::vector<float>(x.begin(), x.end()), std::move(shape));
    };
    const bool gated = s.rule == "gated" || s.rule == "gated_delta",
               delta = s.rule == "delta" || s.rule == "gated_delta";
    std::vector<tensor> in{f(q, {s.B, s.T, s.hq * s.dk}),
                           f(k, {s.B, s.T, s.hkv * s.dk}),
                           f(v, {s.B, s.T, s.hkv * s.dv}),
                           s.past ? f(past, {s.B, s.hkv, s.dk, s.dv}) : tensor{},
                           gated ? f(decay, {s.B, s.T, s.hkv * (s.per_key_decay ? s.dk : 1)}) : tensor{},
                           delta ? f(beta, {s.B, s.T, s.shared_beta ? 1 : s.hkv}) : tensor{}};
    auto r = test::run_op<ops::LinearAttention>(
        in,
        {attr("update_rule", s.rule), attr("q_num_heads", s.hq), attr("kv_num_heads", s.hkv), attr("scale", s.scale)},
        2);
    REQUIRE(r.ok());
    auto e = reference(s, q, k, v, past, decay, beta);
    CHECK((*r)[0].shape() == extents{s.B, s.T, s.hq * s.dv});
    CHECK((*r)[1].shape() == extents{s.B, s.hkv, s.dk, s.dv});
    test::require_close((*r)[0], std::vector<float>(e.y.begin(), e.y.end()), 1e-4, 1e-5);
    test::require_close((*r)[1], std::vector<float>(e.state.begin(), e.state.end()), 1e-4, 1e-5);
  }
}

TEST_CASE("LinearAttention checks its update rule's inputs and head counts", "[attention]") {
  auto x = tensor::zeros(dtype::float32, {1, 2, 4});
  auto heads = [](std::int64_t hq, std::int64_t hkv, std::string rule) {
    return std::vector<attribute>{attr("update_rule", rule), attr("q_num_heads", hq), attr("kv_num_heads", hkv)};
  };
  auto no_decay = test::run_op<ops::LinearAttention>({x, x, x}, heads(2, 2, "gated"), 2);
  REQUIRE_FALSE(no_decay.ok());
  CHECK_THAT(no_decay.error().message(), Catch::Contains("needs the decay input"));
  CHECK_FALSE(test::run_op<ops::LinearAttention>({x, x, x, tensor{}, tensor::zeros(dtype::float32, {1, 2, 2})},
                                                 heads(2, 2, "linear"), 2)
                  .ok());
  CHECK_FALSE(test::run_op<ops::LinearAttention>({x, x, x}, heads(3, 2, "linear"), 2).ok());
}
