#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/size.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

TEST_CASE("Shape: start/end slices, clamped") {
  auto x = tensor::zeros(dtype::float16, {2, 3, 5, 7});
  auto all = run_op<ops::Shape>({x});
  REQUIRE(all.ok());
  test::require_close<std::int64_t>((*all)[0], {2, 3, 5, 7}, 0, 0);
  auto mid = run_op<ops::Shape>({x}, {attr("start", 1), attr("end", -1)});
  REQUIRE(mid.ok());
  test::require_close<std::int64_t>((*mid)[0], {3, 5}, 0, 0);
  auto clamped = run_op<ops::Shape>({x}, {attr("start", -10), attr("end", 10)});
  REQUIRE(clamped.ok());
  test::require_close<std::int64_t>((*clamped)[0], {2, 3, 5, 7}, 0, 0);
  auto none = run_op<ops::Shape>({x}, {attr("start", 3), attr("end", 1)});
  REQUIRE(none.ok());
  CHECK((*none)[0].size() == 0);
}

TEST_CASE("Shape and Size: inference gives the values") {
  test::harness_infer c;
  c.in_types = {value_type{value_kind::tensor, dtype::string, sym_shape(extents{4, 6})}};
  c.in_values = {nullptr};
  c.out_types.resize(1);
  c.out_values.resize(1);
  REQUIRE(ops::Shape::infer({}, c).ok());
  REQUIRE(c.out_values[0]);
  CHECK(c.out_values[0]->data<std::int64_t>()[1] == 6);
  REQUIRE(ops::Size::infer({}, c).ok());
  CHECK(c.out_values[0]->data<std::int64_t>()[0] == 24);
}

TEST_CASE("Size: element count, strings and empty tensors") {
  auto r = run_op<ops::Size>({tensor::zeros(dtype::string, {3, 5})});
  REQUIRE(r.ok());
  CHECK((*r)[0].data<std::int64_t>()[0] == 15);
  auto e = run_op<ops::Size>({tensor::zeros(dtype::float32, {3, 0})});
  REQUIRE(e.ok());
  CHECK((*e)[0].data<std::int64_t>()[0] == 0);
}
