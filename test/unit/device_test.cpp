// Devices without a GPU: a test-only second CPU device with memory of its own.
//
// `cpu_test` runs a few ops (Relu, Add) with the CPU kernels, on tensors the
// executor tags as living on device cpu_test; every other op falls back to
// the host. A model whose nodes split across the two devices must run with
// copies inserted (onyx.Copy nodes, constants copied once at load) and give
// the same outputs as the host alone. The executor refuses to hand a kernel a
// tensor from another device, so a missing copy fails the run, not silently.
#include <catch2/catch.hpp>
#include <filesystem>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace onyx::test {

/// The second device: host memory the executor keeps apart, with counted copies.
struct cpu_test {
  static constexpr std::string_view name = "cpu_test";
  static constexpr device_kind device = device_kind::cpu_test;
  static inline int copies_in = 0, copies_out = 0;

  static status from_host(const tensor& from, tensor& to) {
    if (from.where().kind != device_kind::cpu || to.where().kind != device_kind::cpu_test)
      return status(errc::internal, "from_host between the wrong devices");
    std::memcpy(to.raw(), from.raw(), from.bytes());
    ++copies_in;
    return ok();
  }
  static status to_host(const tensor& from, tensor& to) {
    if (from.where().kind != device_kind::cpu_test || to.where().kind != device_kind::cpu)
      return status(errc::internal, "to_host between the wrong devices");
    std::memcpy(to.raw(), from.raw(), from.bytes());
    ++copies_out;
    return ok();
  }
};

}  // namespace onyx::test

namespace onyx {
template <>
struct kernel<ops::Relu, test::cpu_test> : kernel<ops::Relu, cpu> {};
/// Takes rank-4 inputs only (kernel.hpp's `accepts`): other Adds run on the host.
template <>
struct kernel<ops::Add, test::cpu_test> : kernel<ops::Add, cpu> {
  static bool accepts(const prepare_info<ops::Add>& p) {
    return p.input(0).shape.rank_known && p.input(0).shape.rank() == 4;
  }
};
}  // namespace onyx

namespace {

using namespace onyx;
using ops_used = op_list<ops::Conv, ops::Relu, ops::Add, ops::MaxPool>;
using host_only = registry<ops_used, backend_list<cpu>>;
using split = registry<ops_used, backend_list<test::cpu_test, cpu>>;

/// x -> Conv -> Relu -> Add(bias) -> MaxPool -> Add(residual from Relu) -> y
std::filesystem::path build_model() {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 2, 9, 9});
  auto w = b.initializer("w", tensor::from(test::random_values<float>(3 * 2 * 3 * 3, -1, 1, 7), {3, 2, 3, 3}));
  auto bias = b.initializer("bias", tensor::from(test::random_values<float>(3, -1, 1, 8), {1, 3, 1, 1}));
  auto conv = b.node("Conv", {x, w}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto relu = b.node("Relu", {conv});
  auto shifted = b.node("Add", {relu, bias});
  auto pooled =
      b.node("MaxPool", {shifted},
             {{"kernel_shape", std::vector<std::int64_t>{3, 3}}, {"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto y = b.node("Add", {pooled, relu});
  b.output(y);
  auto path = onyx::test::temp_path("onyx_device_test.onnx");
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("a model split across two devices runs with copies and matches the host") {
  auto path = build_model();
  auto x = tensor::from(test::random_values<float>(2 * 9 * 9, 0, 1, 9), {1, 2, 9, 9});

  basic_session<host_only> host(path, {.threads = 1});
  basic_session<split> two(path, {.threads = 1});

  int relu_on_device = 0, copies = 0, conv_on_host = 0;
  for (const auto& n : two.nodes()) {
    if (n.op == "Relu" && n.backend == "cpu_test") ++relu_on_device;
    if (n.op == "Conv" && n.backend == "cpu") ++conv_on_host;
    if (n.op == "onyx.Copy") ++copies;
  }
  CHECK(relu_on_device == 1);
  CHECK(conv_on_host == 1);
  // conv -> device, device Add -> host MaxPool, pooled -> device, result -> host.
  CHECK(copies == 4);

  test::cpu_test::copies_in = test::cpu_test::copies_out = 0;
  auto expected = host.run({{"x", x}});
  auto actual = two.run({{"x", x}});
  two.run({{"x", x}});
  // Per run: conv and pooled go to the device, the device Add's result and y
  // come back. The bias constant was copied once, at load, not per run.
  CHECK(test::cpu_test::copies_in == 2 * 2);
  CHECK(test::cpu_test::copies_out == 2 * 2);
  REQUIRE(actual.size() == 1);
  const auto& y = actual[0].as_tensor();
  CHECK(y.where().kind == device_kind::cpu);
  auto e = expected[0].as_tensor().values<float>();
  test::require_close(y, std::vector<float>(e.begin(), e.end()), 0, 0);
}

TEST_CASE("a fusion does not move a node to a less preferred backend") {
  // Conv -> Relu: fused::Conv (Conv with its Relu) has a kernel on the host
  // only. With Relu on the second device the fusion would pull Relu off it.
  using with_fused = op_list<ops::Conv, ops::fused::Conv, ops::Relu, ops::Add, ops::MaxPool>;
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 2, 6, 6});
  auto w = b.initializer("w", tensor::from(test::random_values<float>(3 * 2 * 3 * 3, -1, 1, 11), {3, 2, 3, 3}));
  b.output(b.node("Relu", {b.node("Conv", {x, w}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}})}));
  auto path = onyx::test::temp_path("onyx_device_fusion_test.onnx");
  REQUIRE(b.save(path).ok());

  auto ops_of = [](const auto& s) {
    std::vector<std::string> out;
    for (const auto& n : s.nodes())
      if (n.op != "onyx.Copy") out.push_back(n.op + "@" + n.backend);
    return out;
  };
  basic_session<registry<with_fused, backend_list<cpu>>> host(path, {.threads = 1});
  basic_session<registry<with_fused, backend_list<test::cpu_test, cpu>>> two(path, {.threads = 1});
  CHECK(ops_of(host) == std::vector<std::string>{"onyx.fused.Conv@cpu"});
  CHECK(ops_of(two) == std::vector<std::string>{"Conv@cpu", "Relu@cpu_test"});

  auto in = tensor::from(test::random_values<float>(2 * 6 * 6, -1, 1, 12), {1, 2, 6, 6});
  auto expected = host.run({{"x", in}});  // held: values() is a view of the run's output
  auto e = expected[0].as_tensor().values<float>();
  test::require_close(two.run({{"x", in}})[0].as_tensor(), std::vector<float>(e.begin(), e.end()), 0, 0);
}

TEST_CASE("a node the device kernel does not accept runs on the next backend") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 2, 3, 3});
  auto v = b.input("v", dtype::float32, {2, 5});
  b.output(b.node("Add", {x, x}));  // rank 4: on the device
  b.output(b.node("Add", {v, v}));  // rank 2: refused there, on the host
  auto path = onyx::test::temp_path("onyx_device_accepts_test.onnx");
  REQUIRE(b.save(path).ok());
  basic_session<split> two(path, {.threads = 1});
  std::vector<std::string> adds;
  for (const auto& n : two.nodes())
    if (n.op == "Add") adds.push_back(n.backend);
  CHECK(adds == std::vector<std::string>{"cpu_test", "cpu"});
  auto xv = tensor::from(test::random_values<float>(18, -1, 1, 13), {1, 2, 3, 3});
  auto vv = tensor::from(test::random_values<float>(10, -1, 1, 14), {2, 5});
  auto out = two.run({{"x", xv}, {"v", vv}});
  REQUIRE(out.size() == 2);
  for (int i = 0; i < 10; ++i) CHECK(out[1].as_tensor().data<float>()[i] == 2 * vv.data<float>()[i]);
  for (int i = 0; i < 18; ++i) CHECK(out[0].as_tensor().data<float>()[i] == 2 * xv.data<float>()[i]);
}
