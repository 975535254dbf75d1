// ReverseSequence along time-major and batch-major layouts with trailing
// dims, against an index-by-index reference; an out-of-range length.
#include <catch2/catch.hpp>

#include "kernels/cpu/reverse_sequence.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("ReverseSequence reverses each batch entry's prefix", "[misc]") {
  const int T = 5, B = 3, D = 2;
  auto x = test::random_values<float>(T * B * D, -1, 1, 101);
  std::vector<std::int64_t> lens{5, 0, 3};
  for (int time_axis : {0, 1}) {
    extents shape = time_axis == 0 ? extents{T, B, D} : extents{B, T, D};
    auto at = [&](int t, int b) { return time_axis == 0 ? (t * B + b) * D : (b * T + t) * D; };
    std::vector<float> want(x.size());
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < T; ++t)
        for (int d = 0; d < D; ++d) want[at(t, b) + d] = x[at(t < lens[b] ? int(lens[b]) - 1 - t : t, b) + d];
    auto r = test::run_op<ops::ReverseSequence>(
        {tensor::from(x, shape), tensor::from(lens, {B})},
        {test::attr("time_axis", time_axis), test::attr("batch_axis", 1 - time_axis)});
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 0, 0);
  }
}

TEST_CASE("ReverseSequence rejects a length past the time axis", "[misc]") {
  auto r = test::run_op<ops::ReverseSequence>({tensor::from(std::vector<float>(6, 0), {3, 2}),
                                               tensor::from(std::vector<std::int64_t>{1, 4}, {2})});
  REQUIRE(!r.ok());
  CHECK(r.error().code() == errc::out_of_range);
  CHECK(r.error().message().find("sequence_lens[1] = 4") != std::string::npos);
}
