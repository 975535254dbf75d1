#include <functional>

#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>

#include "broadcast_reference.hpp"
#include "kernels/cpu/reduce.hpp"
#include "onyx/core/thread_pool.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;
using onyx::test::run_op;

namespace {
// Reference in double, by xtensor's reductions over the reduced axes.
std::vector<double> reference(const std::vector<double>& x, const extents& shape, const std::vector<bool>& reduced,
                              const std::string& op) {
  const auto X = test::as_xt(x, shape);
  std::vector<std::size_t> ax;
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (reduced[k]) ax.push_back(k);
  xt::xarray<double> r;
  if (op == "ReduceSum") r = xt::sum(X, ax);
  if (op == "ReduceMean") r = xt::mean(X, ax);
  if (op == "ReduceMax") r = xt::amax(X, ax);
  if (op == "ReduceMin") r = xt::amin(X, ax);
  if (op == "ReduceProd") r = xt::prod(X, ax);
  if (op == "ReduceL1") r = xt::sum(xt::abs(X), ax);
  if (op == "ReduceL2") r = xt::sqrt(xt::sum(X * X, ax));
  if (op == "ReduceLogSum") r = xt::log(xt::sum(X, ax));
  if (op == "ReduceLogSumExp") r = xt::log(xt::sum(xt::exp(X), ax));
  if (op == "ReduceSumSquare") r = xt::sum(X * X, ax);
  return {r.begin(), r.end()};
}

template <class Op>
void check_op(const std::string& name, const thread_pool* pool) {
  const std::vector<std::pair<extents, std::vector<std::int64_t>>> cases = {{{7}, {0}},
                                                                            {{3, 5}, {1}},
                                                                            {{3, 5}, {0}},
                                                                            {{3, 5}, {}},
                                                                            {{2, 3, 4, 5}, {1, 2}},
                                                                            {{2, 3, 4, 5}, {0, 3}},
                                                                            {{2, 3, 4, 5}, {-1, 1}},
                                                                            {{5, 1, 300}, {0}},
                                                                            {{4, 3, 1, 7}, {1, 3}},
                                                                            {{2, 600}, {0}}};
  for (auto& [shape, axes] : cases) {
    // Positive values keep LogSum defined.
    auto v = test::random_values<double>(element_count(shape), 0.1, 2, 7);
    std::vector<bool> reduced(shape.size(), axes.empty());
    for (auto a : axes) reduced[a < 0 ? a + static_cast<std::int64_t>(shape.size()) : a] = true;
    auto expected = reference(v, shape, reduced, name);
    for (int keep : {0, 1}) {
      INFO(name << " shape " << to_string(shape) << " keepdims " << keep);
      std::vector<tensor> in{tensor::from(v, shape)};
      if (!axes.empty()) in.push_back(tensor::from(axes, {static_cast<std::int64_t>(axes.size())}));
      auto r = run_op<Op>(in, {attr("keepdims", keep)}, 1, pool);
      REQUIRE(r.ok());
      extents o;
      for (std::size_t k = 0; k < shape.size(); ++k)
        if (!reduced[k])
          o.push_back(shape[k]);
        else if (keep)
          o.push_back(1);
      CHECK((*r)[0].shape() == o);
      test::require_close((*r)[0], expected, 1e-12, 1e-12);
      // float32 agrees within float rounding.
      std::vector<float> vf(v.begin(), v.end());
      in[0] = tensor::from(vf, shape);
      auto rf = run_op<Op>(in, {attr("keepdims", keep)}, 1, pool);
      REQUIRE(rf.ok());
      test::require_close((*rf)[0], std::vector<float>(expected.begin(), expected.end()), 1e-4, 1e-5);
    }
  }
}
}  // namespace

TEST_CASE("Reduce ops match a naive reference on every axis layout") {
  thread_pool pool(3);
  for (const thread_pool* p : {static_cast<const thread_pool*>(nullptr), static_cast<const thread_pool*>(&pool)}) {
    check_op<ops::ReduceSum>("ReduceSum", p);
    check_op<ops::ReduceMean>("ReduceMean", p);
    check_op<ops::ReduceMax>("ReduceMax", p);
    check_op<ops::ReduceMin>("ReduceMin", p);
    check_op<ops::ReduceProd>("ReduceProd", p);
    check_op<ops::ReduceL1>("ReduceL1", p);
    check_op<ops::ReduceL2>("ReduceL2", p);
    check_op<ops::ReduceLogSum>("ReduceLogSum", p);
    check_op<ops::ReduceLogSumExp>("ReduceLogSumExp", p);
    check_op<ops::ReduceSumSquare>("ReduceSumSquare", p);
  }
}

TEST_CASE("Reduce: integers, float16, large LogSumExp inputs") {
  auto r = run_op<ops::ReduceSum>(
      {tensor::from<std::int32_t>({1, -2, 3, 4, 5, -6}, {2, 3}), tensor::from<std::int64_t>({1}, {1})},
      {attr("keepdims", 0)});
  REQUIRE(r.ok());
  test::require_close<std::int32_t>((*r)[0], {2, 3}, 0, 0);
  auto m = run_op<ops::ReduceMax>({tensor::from<std::uint8_t>({1, 200, 3, 4}, {4})});
  REQUIRE(m.ok());
  CHECK((*m)[0].data<std::uint8_t>()[0] == 200);
  auto h = tensor::from<float16_t>({to_float16(1.5f), to_float16(2.25f), to_float16(-1.f)}, {3});
  auto rh = run_op<ops::ReduceSum>({h});
  REQUIRE(rh.ok());
  CHECK(to_float((*rh)[0].data<float16_t>()[0]) == 2.75f);
  auto lse = run_op<ops::ReduceLogSumExp>({tensor::from<float>({1000.f, 1000.f}, {2})});
  REQUIRE(lse.ok());
  CHECK((*lse)[0].data<float>()[0] == Approx(1000.f + std::log(2.f)));
}

TEST_CASE("Reduce: empty sets give the identity, noop_with_empty_axes is an identity") {
  auto e = tensor::zeros(dtype::float32, {2, 0, 3});
  auto ax = tensor::from<std::int64_t>({1}, {1});
  auto s = run_op<ops::ReduceSum>({e, ax});
  REQUIRE(s.ok());
  test::require_close<float>((*s)[0], std::vector<float>(6, 0.f), 0, 0);
  auto p = run_op<ops::ReduceProd>({e, ax});
  REQUIRE(p.ok());
  test::require_close<float>((*p)[0], std::vector<float>(6, 1.f), 0, 0);
  auto mx = run_op<ops::ReduceMax>({e, ax});
  REQUIRE(mx.ok());
  CHECK((*mx)[0].data<float>()[0] == -INFINITY);
  auto ls = run_op<ops::ReduceLogSumExp>({e, ax});
  REQUIRE(ls.ok());
  CHECK((*ls)[0].data<float>()[0] == -INFINITY);
  auto x = tensor::from<float>({1, 2, 3}, {3});
  auto n = run_op<ops::ReduceSum>({x, tensor::zeros(dtype::int64, {0})}, {attr("noop_with_empty_axes", 1)});
  REQUIRE(n.ok());
  test::require_close<float>((*n)[0], {1, 2, 3}, 0, 0);
}

TEST_CASE("Reduce: bad axes and types fail") {
  auto x = tensor::zeros(dtype::float32, {2, 3});
  CHECK_FALSE(run_op<ops::ReduceSum>({x, tensor::from<std::int64_t>({2}, {1})}).ok());
  CHECK_FALSE(run_op<ops::ReduceSum>({x, tensor::from<std::int64_t>({1, -1}, {2})}).ok());
  CHECK_FALSE(run_op<ops::ReduceMean>({tensor::zeros(dtype::boolean, {2})}).ok());
}

TEST_CASE("ReduceMax/ReduceMin: bool is any/all") {
  auto x = tensor::from<bool>({false, true, false, false, true, true}, {2, 3});
  auto ax = tensor::from<std::int64_t>({1}, {1});
  auto mx = run_op<ops::ReduceMax>({x, ax}, {attr("keepdims", 0)});
  auto mn = run_op<ops::ReduceMin>({x, ax}, {attr("keepdims", 0)});
  REQUIRE(mx.ok());
  REQUIRE(mn.ok());
  CHECK((*mx)[0].data<bool>()[0]);
  CHECK((*mx)[0].data<bool>()[1]);
  CHECK_FALSE((*mn)[0].data<bool>()[0]);
  CHECK_FALSE((*mn)[0].data<bool>()[1]);
}

TEST_CASE("Reduce _v1: axes attribute becomes an input, keepdims is kept") {
  struct recording final : ops::expand_context {
    std::string op;
    std::vector<ref> in;
    std::vector<attribute> attrs;
    int input_count() const override { return 1; }
    int output_count() const override { return 1; }
    ref input(int i) const override { return i; }
    ref constant(tensor) override { return 50; }
    result<std::vector<ref>> add(std::string_view o, std::vector<ref> i, std::vector<attribute> a, int) override {
      op = o, in = std::move(i), attrs = std::move(a);
      return std::vector<ref>{9};
    }
    void set_output(int, ref) override {}
  } c;
  ops::ReduceMean_v1::attributes a{std::vector<std::int64_t>{1}, 0};
  REQUIRE(ops::ReduceMean_v1::expand(a, c).ok());
  CHECK(c.op == "ReduceMean");
  CHECK(c.in.size() == 2);
  CHECK(std::get<std::int64_t>(c.attrs[0].data) == 0);
}
