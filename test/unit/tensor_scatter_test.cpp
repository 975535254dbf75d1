// TensorScatter against the spec's loop, written out: linear and circular
// modes, with and without write_indices, on two axes; out-of-range writes and
// mismatched shapes fail.
#include <catch2/catch.hpp>

#include "kernels/cpu/tensor_scatter.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {
/// present = past with update[prefix, s, ...] at [prefix, write[b] + s, ...]
/// (mod max_len when circular), prefix running over the dims before `axis`.
std::vector<float> reference(std::vector<float> past, const extents& ps, const std::vector<float>& update,
                             const extents& us, int axis, const std::vector<std::int64_t>& write, bool circular) {
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= ps[i];
  for (std::size_t i = axis + 1; i < ps.size(); ++i) inner *= ps[i];
  const std::int64_t per_batch = outer / ps[0];
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t s = 0; s < us[axis]; ++s) {
      std::int64_t at = write[o / per_batch] + s;
      if (circular) at %= ps[axis];
      for (std::int64_t i = 0; i < inner; ++i)
        past[(o * ps[axis] + at) * inner + i] = update[(o * us[axis] + s) * inner + i];
    }
  return past;
}
}  // namespace

TEST_CASE("TensorScatter writes updates at each batch's index", "[indexing]") {
  struct scenario {
    extents past, update;
    int axis;
    std::vector<std::int64_t> write;  // empty: input omitted
    std::string mode;
  };
  const std::vector<scenario> all{
      {{2, 3, 8, 4}, {2, 3, 2, 4}, 2, {}, "linear"},
      {{2, 3, 8, 4}, {2, 3, 3, 4}, -2, {1, 5}, "linear"},
      {{2, 3, 8, 4}, {2, 3, 3, 4}, 2, {6, 7}, "circular"},
      {{3, 5, 2}, {3, 2, 2}, 1, {0, 3, 4}, "circular"},
  };
  for (const auto& sc : all) {
    auto past = test::random_values<float>(static_cast<std::size_t>(element_count(sc.past)), -1, 1, 3);
    auto update = test::random_values<float>(static_cast<std::size_t>(element_count(sc.update)), 2, 3, 4);
    const int axis = sc.axis < 0 ? sc.axis + static_cast<int>(sc.past.size()) : sc.axis;
    auto write = sc.write.empty() ? std::vector<std::int64_t>(static_cast<std::size_t>(sc.past[0]), 0) : sc.write;
    std::vector<tensor> inputs{tensor::from(past, sc.past), tensor::from(update, sc.update)};
    if (!sc.write.empty()) inputs.push_back(tensor::from(sc.write, {static_cast<std::int64_t>(sc.write.size())}));
    auto r = test::run_op<ops::TensorScatter>(inputs, {attr("axis", std::int64_t{sc.axis}), attr("mode", sc.mode)});
    INFO(sc.mode << " axis " << sc.axis);
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == sc.past);
    test::require_close((*r)[0], reference(past, sc.past, update, sc.update, axis, write, sc.mode == "circular"), 0, 0);
  }
}

TEST_CASE("TensorScatter rejects writes past the cache and bad shapes", "[indexing]") {
  auto past = tensor::zeros(dtype::float32, {2, 4, 3});
  auto update = tensor::zeros(dtype::float32, {2, 2, 3});
  auto over = test::run_op<ops::TensorScatter>({past, update, tensor::from(std::vector<std::int64_t>{0, 3}, {2})},
                                               {attr("axis", std::int64_t{1})});
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().code() == errc::out_of_range);
  CHECK_THAT(over.error().message(), Catch::Contains("write_indices[1] = 3"));
  auto negative = test::run_op<ops::TensorScatter>({past, update, tensor::from(std::vector<std::int64_t>{-1, 0}, {2})},
                                                   {attr("axis", std::int64_t{1})});
  CHECK_FALSE(negative.ok());
  // Too long an update, a mismatched dim, axis 0, a bad mode.
  CHECK_FALSE(test::run_op<ops::TensorScatter>({past, tensor::zeros(dtype::float32, {2, 5, 3})},
                                               {attr("axis", std::int64_t{1})})
                  .ok());
  CHECK_FALSE(test::run_op<ops::TensorScatter>({past, tensor::zeros(dtype::float32, {2, 2, 4})},
                                               {attr("axis", std::int64_t{1})})
                  .ok());
  CHECK_FALSE(test::run_op<ops::TensorScatter>({past, update}, {attr("axis", std::int64_t{0})}).ok());
  CHECK_FALSE(test::run_op<ops::TensorScatter>({past, update}, {attr("mode", std::string("wrap"))}).ok());
}
