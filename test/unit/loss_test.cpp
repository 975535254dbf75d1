// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against scalar
// references: [N, C, d] with weights and ignore_index under each reduction,
// and an out-of-range target.
#include <catch2/catch.hpp>

#include "kernels/cpu/loss.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
const std::int64_t N = 3, C = 5, D = 4;
std::vector<std::int64_t> targets() {
  std::vector<std::int64_t> t(N * D);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = (i * 3) % C;
  return t;
}
// loss per element and the weight sum, ignore_index 2.
std::vector<double> nll_ref(const std::vector<float>& lp, const std::vector<float>& w, double& wsum) {
  auto t = targets();
  std::vector<double> out(N * D);
  wsum = 0;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t d = 0; d < D; ++d) {
      const auto k = t[n * D + d];
      if (k == 2) continue;
      out[n * D + d] = -lp[(n * C + k) * D + d] * w[k];
      wsum += w[k];
    }
  return out;
}
}  // namespace

TEST_CASE("NegativeLogLikelihoodLoss: reductions, weights, ignore_index", "[loss]") {
  auto x = test::random_values<float>(N * C * D, -3, 0, 41);
  auto w = test::random_values<float>(C, 0.5, 2, 42);
  double wsum;
  auto per = nll_ref(x, w, wsum);
  double sum = 0;
  for (double v : per) sum += v;
  for (std::string red : {"none", "sum", "mean"}) {
    auto out = test::run_op<ops::NegativeLogLikelihoodLoss>(
        {tensor::from(x, {N, C, D}), tensor::from(targets(), {N, D}), tensor::from(w, {C})},
        {attr("reduction", red), attr("ignore_index", 2)});
    REQUIRE(out.ok());
    if (red == "none")
      test::require_close(out.value()[0], std::vector<float>(per.begin(), per.end()), 1e-6, 1e-6);
    else
      test::require_close(out.value()[0], std::vector<float>{float(red == "sum" ? sum : sum / wsum)}, 1e-5, 1e-6);
  }
  auto t = targets();
  t[5] = C;
  auto bad = test::run_op<ops::NegativeLogLikelihoodLoss>({tensor::from(x, {N, C, D}), tensor::from(t, {N, D})});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == errc::out_of_range);
}

TEST_CASE("SoftmaxCrossEntropyLoss: log_prob output and mean loss", "[loss]") {
  auto x = test::random_values<float>(N * C * D, -3, 3, 43);
  std::vector<float> lp(x.size());
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t d = 0; d < D; ++d) {
      double m = -INFINITY, s = 0;
      for (std::int64_t k = 0; k < C; ++k) m = std::max(m, double(x[(n * C + k) * D + d]));
      for (std::int64_t k = 0; k < C; ++k) s += std::exp(x[(n * C + k) * D + d] - m);
      for (std::int64_t k = 0; k < C; ++k) lp[(n * C + k) * D + d] = float(x[(n * C + k) * D + d] - m - std::log(s));
    }
  double wsum;
  auto per = nll_ref(lp, std::vector<float>(C, 1.0f), wsum);
  double sum = 0;
  for (double v : per) sum += v;
  auto out = test::run_op<ops::SoftmaxCrossEntropyLoss>({tensor::from(x, {N, C, D}), tensor::from(targets(), {N, D})},
                                                        {attr("ignore_index", 2)}, 2);
  REQUIRE(out.ok());
  test::require_close(out.value()[0], std::vector<float>{float(sum / wsum)}, 1e-5, 1e-6);
  test::require_close(out.value()[1], lp, 1e-5, 1e-6);
}
