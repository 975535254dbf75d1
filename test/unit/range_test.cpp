#include "kernels/cpu/range.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::run_op;

TEST_CASE("Range: float and integer, negative delta, empty") {
  auto r = run_op<ops::Range>({tensor::scalar<float>(1.f), tensor::scalar<float>(2.f), tensor::scalar<float>(0.3f)});
  REQUIRE(r.ok());
  test::require_close<float>((*r)[0], {1.f, 1.3f, 1.6f, 1.9f}, 1e-6, 1e-6);
  auto i = run_op<ops::Range>({tensor::scalar<std::int32_t>(10), tensor::scalar<std::int32_t>(-3),
                               tensor::scalar<std::int32_t>(-4)});
  REQUIRE(i.ok());
  test::require_close<std::int32_t>((*i)[0], {10, 6, 2, -2}, 0, 0);
  auto e = run_op<ops::Range>({tensor::scalar<std::int64_t>(5), tensor::scalar<std::int64_t>(1),
                               tensor::scalar<std::int64_t>(1)});
  REQUIRE(e.ok());
  CHECK((*e)[0].size() == 0);
}

TEST_CASE("Range: zero delta and mixed types fail") {
  CHECK_FALSE(run_op<ops::Range>({tensor::scalar<float>(0.f), tensor::scalar<float>(1.f), tensor::scalar<float>(0.f)}).ok());
  CHECK_FALSE(run_op<ops::Range>({tensor::scalar<float>(0.f), tensor::scalar<double>(1.), tensor::scalar<float>(1.f)}).ok());
}

TEST_CASE("Range: float16 computes in float") {
  auto r = run_op<ops::Range>({tensor::scalar(to_float16(1.f)), tensor::scalar(to_float16(2.f)),
                               tensor::scalar(to_float16(0.25f))});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].size() == 4);
  CHECK(to_float((*r)[0].data<float16_t>()[3]) == 1.75f);
}
