// Opset 1-6 binary arithmetic (Add/Sub/Mul/Div/Pow_v1: `broadcast`, `axis`)
// and PRelu_v1 (per-channel slope), run through a session so their
// expansions into the latest ops execute; compared with scalar references.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/concat.hpp"
#include "kernels/cpu/div.hpp"
#include "kernels/cpu/expand.hpp"
#include "kernels/cpu/identity.hpp"
#include "kernels/cpu/max.hpp"
#include "kernels/cpu/mul.hpp"
#include "kernels/cpu/pow.hpp"
#include "kernels/cpu/prelu.hpp"
#include "kernels/cpu/reshape.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/sub.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/concat.hpp"
#include "onyx/ops/expand.hpp"
#include "onyx/ops/reshape.hpp"
#include "onyx/ops/shape.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using legacy_registry = prebuilt_registry<op_list<ops::Add, ops::Sub, ops::Mul, ops::Div, ops::Pow, ops::PRelu, ops::Add_v1,
                                         ops::Sub_v1, ops::Mul_v1, ops::Div_v1, ops::Pow_v1, ops::PRelu_v1, ops::Shape,
                                         ops::Expand, ops::Concat, ops::Reshape, ops::Max, ops::Identity>,
                                 backend_list<cpu>>;

/// y = op(a, b) in an opset-6 model with the given attributes.
tensor run_legacy(const char* op, const tensor& a, const tensor& b, graph::graph_builder::attributes attrs) {
  graph::model_builder m{6};
  auto x = m.input("a", a.type(), a.shape());
  auto y = m.input("b", b.type(), b.shape());
  m.output(m.node(op, {x, y}, std::move(attrs)));
  auto path = onyx::test::temp_path("onyx_legacy_broadcast_test.onnx");
  REQUIRE(m.save(path).ok());
  basic_session<legacy_registry> s(path, {.threads = 1});
  auto out = s.run({{"a", a}, {"b", b}});
  return out.at(0).as_tensor();
}

}  // namespace

TEST_CASE("Add/Sub/Mul/Div_v1 align B at axis", "[legacy]") {
  const extents sa{2, 3, 5};
  auto av = test::random_values<float>(30, -2, 2, 1);
  auto bv = test::random_values<float>(3, 0.5f, 2, 2);
  auto a = tensor::from(av, sa);
  auto b = tensor::from(bv, {3});
  struct {
    const char* op;
    float (*f)(float, float);
  } cases[] = {{"Add", [](float x, float y) { return x + y; }},
               {"Sub", [](float x, float y) { return x - y; }},
               {"Mul", [](float x, float y) { return x * y; }},
               {"Div", [](float x, float y) { return x / y; }}};
  for (auto [op, f] : cases) {
    for (std::int64_t axis : {1, -2}) {
      INFO(op << " axis " << axis);
      std::vector<float> want(30);
      for (int i = 0; i < 30; ++i) want[i] = f(av[i], bv[(i / 5) % 3]);
      test::require_close(run_legacy(op, a, b, {{"broadcast", 1}, {"axis", axis}}), want, 1e-6, 1e-6);
    }
  }
}

TEST_CASE("Add_v1 without axis aligns B as a suffix; a scalar B broadcasts", "[legacy]") {
  auto av = test::random_values<double>(2 * 3 * 4, -1, 1, 3);
  auto bv = test::random_values<double>(12, -1, 1, 4);
  std::vector<double> want(24);
  for (int i = 0; i < 24; ++i) want[i] = av[i] + bv[i % 12];
  test::require_close(run_legacy("Add", tensor::from(av, {2, 3, 4}), tensor::from(bv, {3, 4}), {{"broadcast", 1}}),
                      want, 0, 0);
  for (int i = 0; i < 24; ++i) want[i] = av[i] + 0.25;
  test::require_close(run_legacy("Add", tensor::from(av, {2, 3, 4}), tensor::from<double>({0.25}, {1}),
                                 {{"broadcast", 1}, {"axis", 0}}),
                      want, 0, 0);
}

TEST_CASE("Pow_v1 aligns the exponent at axis", "[legacy]") {
  auto av = test::random_values<float>(4 * 3, 0.5f, 2, 5);
  std::vector<float> bv{2, 0.5f, 3, -1};
  std::vector<float> want(12);
  for (int i = 0; i < 12; ++i) want[i] = std::pow(av[i], bv[i / 3]);
  test::require_close(
      run_legacy("Pow", tensor::from(av, {4, 3}), tensor::from(bv, {4}), {{"broadcast", 1}, {"axis", 0}}), want, 1e-6,
      1e-6);
}

TEST_CASE("PRelu_v1 applies a [C] slope per channel", "[legacy]") {
  for (extents shape : {extents{2, 3}, extents{2, 3, 5}, extents{2, 3, 2, 3}}) {
    std::int64_t n = element_count(shape), inner = n / (shape[0] * 3);
    auto xv = test::random_values<float>(n, -1, 1, 6);
    std::vector<float> slope{0.1f, 0.2f, 0.3f};
    std::vector<float> want(n);
    for (std::int64_t i = 0; i < n; ++i) want[i] = xv[i] < 0 ? slope[(i / inner) % 3] * xv[i] : xv[i];
    test::require_close(run_legacy("PRelu", tensor::from(xv, shape), tensor::from(slope, {3}), {}), want, 0, 0);
  }
}

TEST_CASE("Legacy binary ops reject a B that does not fit A at axis", "[legacy]") {
  auto a = tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto b = tensor::from<float>({1, 2, 3}, {3});
  CHECK_THROWS_WITH(run_legacy("Add", a, b, {{"broadcast", 1}, {"axis", 0}}), Catch::Contains("broadcast"));
}
