// Identity: tensors of several widths and strings are copied; sequences are
// passed through; inference forwards a known value.
#include <catch2/catch.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/elementwise_kernels.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "op_harness.hpp"

using namespace onyx;

TEMPLATE_TEST_CASE("Identity copies tensors", "[elementwise]", float, std::int8_t, std::int64_t, std::uint16_t) {
  auto x = test::random_values<TestType>(3 * 41, -100, 100, 2);
  auto r = test::run_op<ops::Identity>({tensor::from(x, {3, 41})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{3, 41});
  test::require_close((*r)[0], x, 0, 0);
}

TEST_CASE("Identity on strings, empty tensors and sequences", "[elementwise]") {
  auto r = test::run_op<ops::Identity>({test::strings({"a", "bcd"}, {2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].values<std::string>()[1] == "bcd");
  auto e = test::run_op<ops::Identity>({tensor::zeros(dtype::float32, {0, 4})});
  REQUIRE(e.ok());
  CHECK((*e)[0].shape() == extents{0, 4});

  sequence s{dtype::float32, {value(tensor::scalar(1.0f)), value(tensor::scalar(2.0f))}};
  value in(s), out;
  value* ins[] = {&in};
  value* outs[] = {&out};
  runtime::standalone_context ctx(nullptr);
  kernel_call c;
  c.in_ = ins;
  c.out_ = outs;
  c.ctx_ = &ctx;
  REQUIRE(kernels::cpu::identity(c).ok());
  REQUIRE(out.is_sequence());
  CHECK(out.as_sequence().items.size() == 2);
}

TEST_CASE("Identity forwards a known value at inference", "[elementwise]") {
  test::harness_infer c;
  auto v = tensor::from(std::vector<std::int64_t>{1, -1}, {2});
  c.in_types = {{value_kind::tensor, dtype::int64, sym_shape(extents{2})}};
  c.in_values = {&v};
  c.out_types.resize(1);
  c.out_values.resize(1);
  REQUIRE(ops::Identity::infer({}, c).ok());
  REQUIRE(c.out_values[0]);
  CHECK(c.out_values[0]->data<std::int64_t>()[1] == -1);
  CHECK(c.out_types[0].type == dtype::int64);
}
