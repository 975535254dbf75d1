// Shrink, Swish and SwiGLU against scalar references; bad types and shapes.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "kernels/cpu/shrink.hpp"
#include "kernels/cpu/swi_glu.hpp"
#include "kernels/cpu/swish.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/swi_glu.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;

TEST_CASE("Shrink: hard and soft, float and int", "[misc]") {
  auto x = test::random_values<float>(3 * 37, -2, 2, 21);
  for (float bias : {0.0f, 1.5f}) {
    std::vector<float> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = x[i] < -1.5f ? x[i] + bias : x[i] > 1.5f ? x[i] - bias : 0.0f;
    auto r =
        test::run_op<ops::Shrink>({tensor::from(x, {3, 37})}, {test::attr("lambd", 1.5f), test::attr("bias", bias)});
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 0, 0);
  }
  std::vector<std::int32_t> xi{-5, -2, -1, 0, 1, 2, 7};
  auto r = test::run_op<ops::Shrink>({tensor::from(xi, {7})}, {test::attr("lambd", 1.0f), test::attr("bias", 1.0f)});
  REQUIRE(r.ok());
  test::require_close((*r)[0], std::vector<std::int32_t>{-4, -1, 0, 0, 0, 1, 6}, 0, 0);
}

TEST_CASE("Swish: x * sigmoid(alpha x)", "[misc]") {
  auto x = test::random_values<double>(1001, -8, 8, 22);
  for (float alpha : {1.0f, 0.5f}) {
    std::vector<double> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = x[i] / (1 + std::exp(-double(alpha) * x[i]));
    thread_pool pool(2);
    auto r = test::run_op<ops::Swish>({tensor::from(x, {1001})}, {test::attr("alpha", alpha)}, 1, &pool);
    REQUIRE(r.ok());
    test::require_close((*r)[0], want, 1e-12, 1e-12);
  }
  auto bad = test::run_op<ops::Swish>({tensor::from(std::vector<std::int32_t>{1}, {1})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("type constraint T") != std::string::npos);
}

TEST_CASE("SwiGLU: A * sigmoid(alpha A) * B, no broadcasting", "[misc]") {
  using swiglu_registry = prebuilt_registry<op_list<ops::SwiGLU>, backend_list<cpu>>;
  auto make = [](const graph::graph_builder::shape_spec& as, const graph::graph_builder::shape_spec& bs, float alpha) {
    graph::model_builder m{28};
    auto a = m.input("A", dtype::float32, as);
    auto b = m.input("B", dtype::float32, bs);
    m.output(m.node("SwiGLU", {a, b}, {{"alpha", alpha}}));
    auto path = onyx::test::temp_path("onyx_swiglu_test.onnx");
    REQUIRE(m.save(path).ok());
    return path;
  };
  const extents shape{3, 67};
  auto av = test::random_values<float>(201, -6, 6, 31), bv = test::random_values<float>(201, -2, 2, 32);
  for (float alpha : {1.0f, 0.5f}) {
    basic_session<swiglu_registry> s(make(shape, shape, alpha), {.threads = 1});
    auto out = s.run({{"A", tensor::from(av, shape)}, {"B", tensor::from(bv, shape)}});
    std::vector<float> expect;
    for (std::size_t i = 0; i < av.size(); ++i)
      expect.push_back(static_cast<float>(av[i] / (1 + std::exp(-double(alpha) * av[i])) * bv[i]));
    test::require_close(out.at(0).as_tensor(), expect, 1e-5, 1e-6);
  }
  // A and B must agree in shape: no broadcasting, at load when the shapes
  // are known, at run when they are symbolic.
  CHECK_THROWS_WITH((basic_session<swiglu_registry>(make({3, 67}, {1, 67}, 1.0f), {.threads = 1})),
                    Catch::Contains("must have the same shape"));
  auto bad = test::run_op<ops::SwiGLU>({tensor::from(av, shape), tensor::from(std::vector<float>(67), {1, 67})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("must have the same shape"));
  basic_session<swiglu_registry> symbolic(make({"n", 67}, {"m", 67}, 1.0f), {.threads = 1});
  CHECK_THROWS_WITH(
      symbolic.run({{"A", tensor::from(av, shape)}, {"B", tensor::from(std::vector<float>(67), {1, 67})}}),
      Catch::Contains("must have the same shape"));
}
