// BitCast keeps the bytes; widths must match.
#include <catch2/catch.hpp>
#include <bit>

#include "kernels/cpu/bit_cast.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEST_CASE("BitCast reinterprets bytes of equal width", "[misc]") {
  auto x = test::random_values<float>(13, -100, 100, 111);
  auto r = test::run_op<ops::BitCast>({tensor::from(x, {13})}, {test::attr("to", int(dtype::int32))});
  REQUIRE(r.ok());
  std::vector<std::int32_t> want;
  for (float v : x) want.push_back(std::bit_cast<std::int32_t>(v));
  test::require_close((*r)[0], want, 0, 0);
  auto h = test::run_op<ops::BitCast>({tensor::from(std::vector<std::uint16_t>{0x3c00, 0xc000}, {2})},
                                      {test::attr("to", int(dtype::float16))});
  REQUIRE(h.ok());
  CHECK(to_float((*h)[0].values<float16_t>()[0]) == 1.0f);
  CHECK(to_float((*h)[0].values<float16_t>()[1]) == -2.0f);
}

TEST_CASE("BitCast rejects a different width and strings", "[misc]") {
  auto r = test::run_op<ops::BitCast>({tensor::from(std::vector<float>{1}, {1})}, {test::attr("to", int(dtype::int64))});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("32 bits") != std::string::npos);
  auto s = test::run_op<ops::BitCast>({tensor::from(std::vector<float>{1}, {1})}, {test::attr("to", int(dtype::string))});
  REQUIRE(!s.ok());
}
