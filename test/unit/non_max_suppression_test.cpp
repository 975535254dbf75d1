// NonMaxSuppression: both box encodings, thresholds, limits, two batches and
// classes, against a brute-force greedy reference; bad shapes.
#include <catch2/catch.hpp>
#include <algorithm>

#include "kernels/cpu/non_max_suppression.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
double iou(const float* a, const float* b) {  // corners [y1, x1, y2, x2]
  double ya = std::min(a[0], a[2]), yb = std::max(a[0], a[2]), xa = std::min(a[1], a[3]), xb = std::max(a[1], a[3]);
  double yc = std::min(b[0], b[2]), yd = std::max(b[0], b[2]), xc = std::min(b[1], b[3]), xd = std::max(b[1], b[3]);
  double w = std::min(xb, xd) - std::max(xa, xc), h = std::min(yb, yd) - std::max(ya, yc);
  if (w <= 0 || h <= 0) return 0;
  return w * h / ((xb - xa) * (yb - ya) + (xd - xc) * (yd - yc) - w * h);
}
}  // namespace

TEST_CASE("NonMaxSuppression against a brute-force greedy reference", "[misc]") {
  const int B = 2, C = 2, N = 40;
  auto corners = test::random_values<float>(B * N * 4, 0, 10, 71);
  auto scores = test::random_values<float>(B * C * N, 0, 1, 72);
  for (float thr : {0.0f, 0.3f})
    for (bool with_score_min : {false, true}) {
      std::vector<std::int64_t> want;
      for (int b = 0; b < B; ++b)
        for (int k = 0; k < C; ++k) {
          std::vector<int> order;
          for (int i = 0; i < N; ++i)
            if (!with_score_min || scores[(b * C + k) * N + i] > 0.4f) order.push_back(i);
          std::stable_sort(order.begin(), order.end(),
                           [&](int x, int y) { return scores[(b * C + k) * N + x] > scores[(b * C + k) * N + y]; });
          std::vector<int> kept;
          for (int i : order) {
            if (kept.size() >= 5) break;
            bool ok = true;
            for (int j : kept) ok = ok && iou(&corners[(b * N + i) * 4], &corners[(b * N + j) * 4]) <= thr;
            if (ok) kept.push_back(i), want.insert(want.end(), {b, k, i});
          }
        }
      std::vector<tensor> in{tensor::from(corners, {B, N, 4}), tensor::from(scores, {B, C, N}),
                             tensor::from<std::int64_t>({5}, {1}), tensor::from<float>({thr}, {1})};
      if (with_score_min) in.push_back(tensor::from<float>({0.4f}, {1}));
      auto r = test::run_op<ops::NonMaxSuppression>(in);
      REQUIRE(r.ok());
      CHECK((*r)[0].shape() == extents{std::int64_t(want.size() / 3), 3});
      test::require_close((*r)[0], want, 0, 0);
    }
}

TEST_CASE("NonMaxSuppression with center boxes; no limit selects nothing", "[misc]") {
  // Two heavily overlapping boxes and one apart, as [xc, yc, w, h].
  std::vector<float> boxes{0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 5, 5, 1, 1};
  std::vector<float> scores{0.9f, 0.95f, 0.3f};
  auto r = test::run_op<ops::NonMaxSuppression>(
      {tensor::from(boxes, {1, 3, 4}), tensor::from(scores, {1, 1, 3}), tensor::from<std::int64_t>({3}, {1}),
       tensor::from<float>({0.5f}, {1})},
      {test::attr("center_point_box", 1)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int64_t>{0, 0, 1, 0, 0, 2}, 0, 0);
  auto none = test::run_op<ops::NonMaxSuppression>({tensor::from(boxes, {1, 3, 4}), tensor::from(scores, {1, 1, 3})});
  REQUIRE(none.ok());
  CHECK((*none)[0].shape() == extents{0, 3});
}

TEST_CASE("NonMaxSuppression rejects mismatched shapes", "[misc]") {
  auto r = test::run_op<ops::NonMaxSuppression>(
      {tensor::from(std::vector<float>(8, 0), {1, 2, 4}), tensor::from(std::vector<float>(3, 0), {1, 1, 3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("disagree") != std::string::npos);
}
