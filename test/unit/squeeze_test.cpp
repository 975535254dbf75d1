#include "kernels/cpu/squeeze.hpp"
#include "kernels/cpu/unsqueeze.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {
// Records what an `expand` builds.
struct squeeze_expand_recorder final : ops::expand_context {
  std::vector<tensor> constants;
  std::string op;
  std::vector<ref> inputs;
  std::vector<attribute> attrs;
  int input_count() const override { return 1; }
  int output_count() const override { return 1; }
  ref input(int i) const override { return i; }
  ref constant(tensor t) override {
    constants.push_back(std::move(t));
    return 100 + static_cast<int>(constants.size()) - 1;
  }
  result<std::vector<ref>> add(std::string_view o, std::vector<ref> in, std::vector<attribute> a, int) override {
    op = o;
    inputs = std::move(in);
    attrs = std::move(a);
    return std::vector<ref>{7};
  }
  void set_output(int, ref) override {}
};
}  // namespace

TEST_CASE("Squeeze: listed axes, all size-1 axes, data unchanged") {
  auto v = test::random_values<float>(15, -1, 1, 4);
  auto x = tensor::from(v, {1, 3, 1, 5, 1});
  auto r = run_op<ops::Squeeze>({x, tensor::from<std::int64_t>({0, -1}, {2})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{3, 1, 5});
  test::require_close((*r)[0], v, 0, 0);
  auto all = run_op<ops::Squeeze>({x, tensor{}});
  REQUIRE(all.ok());
  CHECK((*all)[0].shape() == extents{3, 5});
}

TEST_CASE("Squeeze: a non-1 axis or a repeated axis fails") {
  auto x = tensor::zeros(dtype::float32, {1, 3});
  auto r = run_op<ops::Squeeze>({x, tensor::from<std::int64_t>({1}, {1})});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("not 1") != std::string::npos);
  CHECK_FALSE(run_op<ops::Squeeze>({x, tensor::from<std::int64_t>({0, -2}, {2})}).ok());
  CHECK_FALSE(run_op<ops::Squeeze>({x, tensor::from<std::int64_t>({2}, {1})}).ok());
}

TEST_CASE("Unsqueeze: axes are output positions, negative from the output's end") {
  auto v = test::random_values<std::int64_t>(6, -100, 100, 2);
  auto x = tensor::from(v, {2, 3});
  auto r = run_op<ops::Unsqueeze>({x, tensor::from<std::int64_t>({0, -1, 2}, {3})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{1, 2, 1, 3, 1});
  test::require_close((*r)[0], v, 0, 0);
  auto s = run_op<ops::Unsqueeze>({tensor::scalar<float>(2.f), tensor::from<std::int64_t>({0}, {1})});
  REQUIRE(s.ok());
  CHECK((*s)[0].shape() == extents{1});
  CHECK_FALSE(run_op<ops::Unsqueeze>({x, tensor::from<std::int64_t>({3, 3}, {2})}).ok());
  CHECK_FALSE(run_op<ops::Unsqueeze>({x, tensor::from<std::int64_t>({5}, {1})}).ok());
}

TEST_CASE("Squeeze_v1 / Unsqueeze_v1: attributes become an axes input") {
  squeeze_expand_recorder c;
  REQUIRE(ops::Unsqueeze_v1::expand({{0, 2}}, c).ok());
  CHECK(c.op == "Unsqueeze");
  REQUIRE(c.inputs.size() == 2);
  CHECK(c.constants[0].data<std::int64_t>()[1] == 2);
  squeeze_expand_recorder s;
  REQUIRE(ops::Squeeze_v1::expand({}, s).ok());
  CHECK(s.inputs.size() == 1);
  squeeze_expand_recorder s2;
  REQUIRE(ops::Squeeze_v1::expand({std::vector<std::int64_t>{1}}, s2).ok());
  CHECK(s2.inputs.size() == 2);
}
