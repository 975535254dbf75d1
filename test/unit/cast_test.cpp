// Cast and CastLike across numeric, bool, half and string types against
// static_cast / std conversions; inference of `to` and its errors.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
template <class From, class To> void check_cast(double lo, double hi) {
  auto x = test::random_values<From>(4 * 37, lo, hi, 8);
  std::vector<To> e(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) e[i] = static_cast<To>(x[i]);
  thread_pool pool(2);
  auto r = test::run_op<ops::Cast>({tensor::from(x, {4, 37})}, {test::attr("to", int(dtype_of<To>))}, 1, &pool);
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype_of<To>);
  test::require_close((*r)[0], e, 0, 0);
}
}  // namespace

TEST_CASE("Cast between numeric types", "[elementwise]") {
  check_cast<float, double>(-1e6, 1e6);
  check_cast<double, float>(-1e6, 1e6);
  check_cast<float, std::int32_t>(-1e6, 1e6);  // truncation toward zero
  check_cast<std::int64_t, float>(-1e6, 1e6);
  check_cast<std::int32_t, std::int64_t>(-1e6, 1e6);
  check_cast<std::int64_t, std::int8_t>(-100, 100);
  check_cast<std::uint8_t, std::int16_t>(0, 255);
  check_cast<double, std::uint16_t>(0, 60000);
}

TEST_CASE("Cast to and from bool, float16, bfloat16", "[elementwise]") {
  auto x = tensor::from(std::vector<float>{0, -2.5f, 0.1f, 65504}, {4});
  auto b = test::run_op<ops::Cast>({x}, {test::attr("to", int(dtype::boolean))});
  REQUIRE(b.ok());
  auto bv = (*b)[0].values<bool>();
  CHECK(std::vector<bool>(bv.begin(), bv.end()) == std::vector<bool>{false, true, true, true});
  auto back = test::run_op<ops::Cast>({(*b)[0]}, {test::attr("to", int(dtype::int32))});
  REQUIRE(back.ok());
  test::require_close((*back)[0], std::vector<std::int32_t>{0, 1, 1, 1}, 0, 0);
  auto h = test::run_op<ops::Cast>({x}, {test::attr("to", int(dtype::float16))});
  REQUIRE(h.ok());
  auto hv = (*h)[0].values<float16_t>();
  CHECK(to_float(hv[1]) == -2.5f);
  CHECK(to_float(hv[3]) == 65504.0f);
  auto bf = test::run_op<ops::Cast>({(*h)[0]}, {test::attr("to", int(dtype::bfloat16))});
  REQUIRE(bf.ok());
  CHECK(to_float((*bf)[0].values<bfloat16_t>()[1]) == -2.5f);
  auto i = test::run_op<ops::Cast>({(*h)[0]}, {test::attr("to", int(dtype::int64))});
  REQUIRE(i.ok());
  test::require_close((*i)[0], std::vector<std::int64_t>{0, -2, 0, 65504}, 0, 0);
}

TEST_CASE("Cast to and from strings", "[elementwise]") {
  auto s = test::run_op<ops::Cast>({test::strings({"1.5", "-inf", "NaN", "1e-3", "junk"}, {5})},
                                   {test::attr("to", int(dtype::float32))});
  REQUIRE(s.ok());
  const float inf = std::numeric_limits<float>::infinity();
  auto sv = (*s)[0].values<float>();
  CHECK(sv[0] == 1.5f);
  CHECK(sv[1] == -inf);
  CHECK(std::isnan(sv[2]));
  CHECK(sv[3] == 1e-3f);
  CHECK(sv[4] == 0);
  auto n = test::run_op<ops::Cast>({test::strings({"42", "-7"}, {2})}, {test::attr("to", int(dtype::int64))});
  REQUIRE(n.ok());
  test::require_close((*n)[0], std::vector<std::int64_t>{42, -7}, 0, 0);
  auto t = test::run_op<ops::Cast>({tensor::from(std::vector<float>{0.1f, -3, 1e20f}, {3})},
                                   {test::attr("to", int(dtype::string))});
  REQUIRE(t.ok());
  auto tv = (*t)[0].values<std::string>();
  CHECK(tv[0] == "0.1");
  CHECK(tv[1] == "-3");
  CHECK(std::stof(tv[2]) == 1e20f);
}

TEST_CASE("CastLike takes the target's type", "[elementwise]") {
  auto x = tensor::from(std::vector<double>{1.75, -2.25}, {2});
  auto r = test::run_op<ops::CastLike>({x, tensor::scalar(std::int32_t{0})});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::int32);
  test::require_close((*r)[0], std::vector<std::int32_t>{1, -2}, 0, 0);
  auto f = test::run_op<ops::CastLike>({x, tensor::zeros(dtype::float16, {0})});
  REQUIRE(f.ok());
  CHECK(to_float((*f)[0].values<float16_t>()[0]) == 1.75f);
}

TEST_CASE("Cast rejects unknown and unsupported target types", "[elementwise]") {
  auto x = tensor::from(std::vector<float>{1}, {1});
  auto r = test::run_op<ops::Cast>({x}, {test::attr("to", 99)});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("no ONNX type") != std::string::npos);
  auto complex = test::run_op<ops::Cast>({x}, {test::attr("to", int(dtype::complex64))});
  REQUIRE(!complex.ok());
  CHECK(complex.error().code() == errc::unsupported);
  auto missing = test::run_op<ops::Cast>({x});
  REQUIRE(!missing.ok());
  CHECK(missing.error().message().find("'to'") != std::string::npos);
}

TEST_CASE("Cast computes small shape values at inference", "[elementwise]") {
  test::harness_infer c;
  auto v = tensor::from(std::vector<std::int64_t>{3, 224}, {2});
  c.in_types = {{value_kind::tensor, dtype::int64, sym_shape(extents{2})}};
  c.in_values = {&v};
  c.out_types.resize(1);
  c.out_values.resize(1);
  ops::Cast::attributes a;
  a.to = int(dtype::float32);
  REQUIRE(ops::Cast::infer(a, c).ok());
  REQUIRE(c.out_values[0]);
  CHECK(c.out_values[0]->data<float>()[1] == 224.0f);
}
