// Attention against a scalar double reference: 4D GQA with causal + float
// mask + past cache, 3D with bool mask and softcap, and a bad head count.
#include <catch2/catch.hpp>

#include "kernels/cpu/attention.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {

struct case_t {
  std::int64_t B, Hq, Hkv, Sq, Skv, P, D, Dv;
  bool causal;
  float softcap;
};

// q [B,Hq,Sq,D], k/v [B,Hkv,P+Skv,*] (past already concatenated), mask [Sq,P+Skv] additive.
std::vector<double> reference(const case_t& t, const std::vector<float>& q, const std::vector<float>& k,
                              const std::vector<float>& v, const std::vector<float>& mask) {
  const std::int64_t T = t.P + t.Skv;
  std::vector<double> y(static_cast<std::size_t>(t.B * t.Hq * t.Sq * t.Dv), 0.0);
  const double scale = 1.0 / std::sqrt(static_cast<double>(t.D));
  for (std::int64_t b = 0; b < t.B; ++b)
    for (std::int64_t h = 0; h < t.Hq; ++h) {
      const std::int64_t hk = h / (t.Hq / t.Hkv);
      for (std::int64_t i = 0; i < t.Sq; ++i) {
        std::vector<double> s(static_cast<std::size_t>(T));
        double top = -INFINITY;
        for (std::int64_t j = 0; j < T; ++j) {
          double dot = 0;
          for (std::int64_t d = 0; d < t.D; ++d)
            dot += q[((b * t.Hq + h) * t.Sq + i) * t.D + d] * k[((b * t.Hkv + hk) * T + j) * t.D + d];
          dot *= scale;
          if (t.softcap > 0) dot = t.softcap * std::tanh(dot / t.softcap);
          dot += mask.empty() ? 0.0 : mask[i * T + j];
          if (t.causal && j > i + t.P) dot = -INFINITY;
          s[j] = dot;
          top = std::max(top, dot);
        }
        double sum = 0;
        for (auto& e : s) sum += (e = std::exp(e - top));
        for (std::int64_t j = 0; j < T; ++j)
          for (std::int64_t d = 0; d < t.Dv; ++d)
            y[((b * t.Hq + h) * t.Sq + i) * t.Dv + d] += s[j] / sum * v[((b * t.Hkv + hk) * T + j) * t.Dv + d];
      }
    }
  return y;
}

std::vector<float> as_floats(const std::vector<double>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("Attention 4D: GQA, causal, float mask, past cache", "[attention]") {
  const case_t t{2, 6, 2, 5, 3, 4, 17, 9, true, 0.0f};
  const std::int64_t T = t.P + t.Skv;
  auto q = test::random_values<float>(t.B * t.Hq * t.Sq * t.D, -1, 1, 1);
  auto kall = test::random_values<float>(t.B * t.Hkv * T * t.D, -1, 1, 2);
  auto vall = test::random_values<float>(t.B * t.Hkv * T * t.Dv, -1, 1, 3);
  auto mask = test::random_values<float>(t.Sq * T, -1, 0, 4);
  // Split the full K/V into past and new along the sequence axis.
  auto split = [&](const std::vector<float>& all, std::int64_t D, std::vector<float>& past, std::vector<float>& now) {
    for (std::int64_t bh = 0; bh < t.B * t.Hkv; ++bh)
      for (std::int64_t s = 0; s < T; ++s)
        for (std::int64_t d = 0; d < D; ++d)
          (s < t.P ? past : now).push_back(all[(bh * T + s) * D + d]);
  };
  std::vector<float> pk, k, pv, v;
  split(kall, t.D, pk, k);
  split(vall, t.Dv, pv, v);
  thread_pool pool(3);
  auto r = test::run_op<ops::Attention>(
      {tensor::from(q, {t.B, t.Hq, t.Sq, t.D}), tensor::from(k, {t.B, t.Hkv, t.Skv, t.D}),
       tensor::from(v, {t.B, t.Hkv, t.Skv, t.Dv}), tensor::from(mask, {t.Sq, T}),
       tensor::from(pk, {t.B, t.Hkv, t.P, t.D}), tensor::from(pv, {t.B, t.Hkv, t.P, t.Dv})},
      {attr("is_causal", 1)}, 3, &pool);
  REQUIRE(r.ok());
  test::require_close(r.value()[0], as_floats(reference(t, q, kall, vall, mask)), 1e-4, 1e-5);
  CHECK(r.value()[1].values<float>()[0] == kall[0]);
  test::require_close(r.value()[2], std::vector<float>(vall.begin(), vall.end()), 0, 0);
}

TEST_CASE("Attention 3D: heads split from the hidden size, bool mask, softcap", "[attention]") {
  const case_t t{1, 3, 3, 4, 7, 0, 5, 3, false, 1.5f};
  auto q4 = test::random_values<float>(t.Hq * t.Sq * t.D, -2, 2, 5);
  auto k4 = test::random_values<float>(t.Hkv * t.Skv * t.D, -2, 2, 6);
  auto v4 = test::random_values<float>(t.Hkv * t.Skv * t.Dv, -2, 2, 7);
  // [H, S, D] -> [S, H*D]
  auto to3d = [](const std::vector<float>& x, std::int64_t H, std::int64_t S, std::int64_t D) {
    std::vector<float> y(x.size());
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t s = 0; s < S; ++s)
        for (std::int64_t d = 0; d < D; ++d) y[(s * H + h) * D + d] = x[(h * S + s) * D + d];
    return y;
  };
  std::vector<bool> keep(t.Sq * t.Skv);
  std::vector<float> additive(keep.size());
  for (std::size_t i = 0; i < keep.size(); ++i) {
    keep[i] = i % 3 != 1;
    additive[i] = keep[i] ? 0.0f : -INFINITY;
  }
  auto r = test::run_op<ops::Attention>(
      {tensor::from(to3d(q4, t.Hq, t.Sq, t.D), {1, t.Sq, t.Hq * t.D}),
       tensor::from(to3d(k4, t.Hkv, t.Skv, t.D), {1, t.Skv, t.Hkv * t.D}),
       tensor::from(to3d(v4, t.Hkv, t.Skv, t.Dv), {1, t.Skv, t.Hkv * t.Dv}), tensor::from(keep, {t.Sq, t.Skv})},
      {attr("q_num_heads", 3), attr("kv_num_heads", 3), attr("softcap", 1.5f)});
  REQUIRE(r.ok());
  auto y4 = reference(t, q4, k4, v4, additive);
  std::vector<double> y3(y4.size());
  for (std::int64_t h = 0; h < t.Hq; ++h)
    for (std::int64_t s = 0; s < t.Sq; ++s)
      for (std::int64_t d = 0; d < t.Dv; ++d) y3[(s * t.Hq + h) * t.Dv + d] = y4[(h * t.Sq + s) * t.Dv + d];
  test::require_close(r.value()[0], as_floats(y3), 1e-4, 1e-5);
}

TEST_CASE("Attention: a fully masked row is zero; bad head counts fail", "[attention]") {
  auto q = tensor::from(test::random_values<float>(1 * 1 * 2 * 4), {1, 1, 2, 4});
  auto k = tensor::from(test::random_values<float>(1 * 1 * 3 * 4, -1, 1, 9), {1, 1, 3, 4});
  std::vector<bool> none{false, false, false, true, true, true};
  auto r = test::run_op<ops::Attention>({q, k, k, tensor::from(none, {2, 3})});
  REQUIRE(r.ok());
  for (int d = 0; d < 4; ++d) CHECK(r.value()[0].values<float>()[d] == 0.0f);

  auto q3 = tensor::from(test::random_values<float>(1 * 2 * 4 * 4), {1, 4, 2, 4});
  auto k3 = tensor::from(test::random_values<float>(1 * 3 * 3 * 4), {1, 3, 3, 4});
  auto bad = test::run_op<ops::Attention>({q3, k3, k3});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("multiple of kv heads"));
}

// Enough query rows for the block path (mr query rows at a time through the
// micro-kernel, every operand in L1): odd head sizes, key counts off the
// tile width, GQA, a key mask shared by every row (BERT's [B, 1, 1, T]) and
// a per-row mask with a row that hides every key (a zero row), on a pool.
TEST_CASE("Attention, blocks of query rows: masks, hidden rows, GQA, odd sizes", "[attention]") {
  thread_pool pool(2);
  int seed = 20;
  for (const case_t& t : {case_t{1, 4, 2, 13, 7, 0, 8, 8, false, 0.0f}, case_t{2, 3, 3, 25, 33, 0, 40, 17, false, 0.0f},
                         case_t{1, 2, 1, 128, 128, 0, 32, 64, false, 0.0f}, case_t{1, 2, 2, 30, 129, 0, 64, 33, false, 0.0f}}) {
    INFO("Sq " << t.Sq << ", T " << t.Skv << ", D " << t.D << ", Dv " << t.Dv);
    const std::int64_t T = t.Skv;
    auto q = test::random_values<float>(t.B * t.Hq * t.Sq * t.D, -2, 2, ++seed);
    auto k = test::random_values<float>(t.B * t.Hkv * T * t.D, -2, 2, ++seed);
    auto v = test::random_values<float>(t.B * t.Hkv * T * t.Dv, -1, 1, ++seed);
    const std::vector<float> qv = q;
    // A key mask shared by every row: every third key hidden.
    std::vector<float> keys(static_cast<std::size_t>(T));
    for (std::int64_t j = 0; j < T; ++j) keys[j] = j % 3 == 2 ? -INFINITY : -0.25f * static_cast<float>(j % 4);
    // A mask per row: random, with row 4 hiding every key.
    auto rows = test::random_values<float>(t.Sq * T, -3, 0, ++seed);
    for (std::int64_t j = 0; j < T; ++j) rows[4 * T + j] = -INFINITY;
    for (int kind = 0; kind < 3; ++kind) {
      INFO("mask kind " << kind);
      std::vector<float> full;  // the reference's [Sq, T] additive mask
      std::vector<tensor> in{tensor::from(q, {t.B, t.Hq, t.Sq, t.D}), tensor::from(k, {t.B, t.Hkv, T, t.D}),
                             tensor::from(v, {t.B, t.Hkv, T, t.Dv})};
      if (kind == 1) {
        in.push_back(tensor::from(keys, {1, 1, 1, T}));
        for (std::int64_t i = 0; i < t.Sq; ++i) full.insert(full.end(), keys.begin(), keys.end());
      } else if (kind == 2) {
        in.push_back(tensor::from(rows, {t.Sq, T}));
        full = rows;
      }
      auto r = test::run_op<ops::Attention>(in, {}, 1, &pool);
      REQUIRE(r.ok());
      auto want = reference(t, qv, k, v, full);
      if (kind == 2)  // the hidden row is zero, not NaN
        for (std::int64_t bh = 0; bh < t.B * t.Hq; ++bh)
          for (std::int64_t d = 0; d < t.Dv; ++d) want[(bh * t.Sq + 4) * t.Dv + d] = 0.0;
      test::require_close(r.value()[0], as_floats(want), 1e-4, 1e-5);
    }
  }
}
