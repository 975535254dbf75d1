// HannWindow, HammingWindow, BlackmanWindow: periodic and symmetric, float
// and double outputs, against the closed forms; a bad output_datatype.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "kernels/cpu/windows.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
template <class Op> void check_window(double a0, double a1, double a2) {
  for (std::int64_t n : {1, 8, 11})
    for (int periodic : {1, 0}) {
      if (n == 1 && !periodic) continue;  // N = 0: 0 / 0
      double N = periodic ? n : n - 1;
      std::vector<double> want;
      for (std::int64_t i = 0; i < n; ++i)
        want.push_back(a0 - a1 * std::cos(2 * std::numbers::pi * i / N) + a2 * std::cos(4 * std::numbers::pi * i / N));
      auto r = test::run_op<Op>({tensor::scalar<std::int64_t>(n)},
                                {test::attr("periodic", periodic), test::attr("output_datatype", int(dtype::float64))});
      REQUIRE(r.ok());
      test::require_close((*r)[0], want, 1e-12, 1e-12);
      auto f = test::run_op<Op>({tensor::scalar<std::int32_t>(std::int32_t(n))}, {test::attr("periodic", periodic)});
      REQUIRE(f.ok());
      REQUIRE((*f)[0].type() == dtype::float32);
      test::require_close((*f)[0], std::vector<float>(want.begin(), want.end()), 1e-6, 1e-6);
    }
}
}  // namespace

TEST_CASE("Hann, Hamming and Blackman windows", "[misc]") {
  check_window<ops::HannWindow>(0.5, 0.5, 0);
  check_window<ops::HammingWindow>(25.0 / 46, 21.0 / 46, 0);
  check_window<ops::BlackmanWindow>(0.42, 0.5, 0.08);
}

TEST_CASE("Windows reject a non-numeric output_datatype and a negative size", "[misc]") {
  auto r = test::run_op<ops::HannWindow>({tensor::scalar<std::int64_t>(4)}, {test::attr("output_datatype", int(dtype::string))});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("output_datatype") != std::string::npos);
  auto n = test::run_op<ops::HannWindow>({tensor::scalar<std::int64_t>(-1)});
  REQUIRE(!n.ok());
  CHECK(n.error().message().find("negative") != std::string::npos);
}
