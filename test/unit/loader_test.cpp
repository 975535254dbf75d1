// The loader's promises on bad models: a clear error, never a crash.
// Truncated and garbage files, dangling names, cycles, unknown ops and opsets
// (all reported at once), duplicate definitions, and wrong inputs at run time.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using small = prebuilt_registry<op_list<ops::Relu, ops::Add>, backend_list<cpu>>;
namespace fs = std::filesystem;

fs::path temp(const std::string& name) { return onyx::test::temp_path("loader_test_" + name); }

status open_status(const fs::path& p) {
  auto s = basic_session<small>::open(p);
  return s.ok() ? ok() : s.error();
}

fs::path save(graph::model_builder& b, const std::string& name) {
  auto p = temp(name);
  REQUIRE(b.save(p).ok());
  return p;
}

graph::model_builder relu_add() {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {"N", 3});
  b.output(b.node("Add", {b.node("Relu", {x}), x}));
  return b;
}

}  // namespace

TEST_CASE("a good model loads and runs") {
  auto b = relu_add();
  REQUIRE(open_status(save(b, "good.onnx")).ok());
}

TEST_CASE("truncated and garbage files are errors") {
  auto b = relu_add();
  std::string bytes = b.serialize();
  for (std::size_t cut : {bytes.size() / 2, bytes.size() - 3, std::size_t{1}}) {
    auto p = temp("truncated.onnx");
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(cut));
    auto st = open_status(p);
    INFO(st.message());
    REQUIRE_FALSE(st.ok());
  }
  auto p = temp("garbage.onnx");
  std::ofstream(p, std::ios::binary) << "this is not a protobuf \xff\xff\xff\xff\xff";
  auto st = open_status(p);
  REQUIRE(st.code() == errc::invalid_model);
  CHECK_THAT(st.message(), Catch::Contains("garbage.onnx"));

  st = open_status(temp("does_not_exist.onnx"));
  CHECK(st.code() == errc::io);
}

TEST_CASE("a dangling input name names the node and the value") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2});
  b.output(b.node("Add", {x, "nowhere"}));
  auto st = open_status(save(b, "dangling.onnx"));
  REQUIRE(st.code() == errc::invalid_model);
  CHECK_THAT(st.message(), Catch::Contains("Add") && Catch::Contains("'nowhere'"));
}

TEST_CASE("a cycle is an error") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2});
  b.node("Add", {x, "b"}, {}, std::vector<std::string>{"a"});
  b.node("Relu", {"a"}, {}, std::vector<std::string>{"b"});
  b.output("a");
  auto st = open_status(save(b, "cycle.onnx"));
  REQUIRE(st.code() == errc::invalid_model);
  CHECK_THAT(st.message(), Catch::Contains("cycle"));
}

TEST_CASE("every missing op is reported at once, with opset ranges") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2});
  auto y = b.node("Sin", {b.node("Cos", {b.node("Relu", {x})})});
  b.output(b.node({"com.example", "Custom"}, {y}));
  b.import("com.example", 1);
  auto st = open_status(save(b, "missing.onnx"));
  REQUIRE(st.code() == errc::unsupported);
  CHECK_THAT(st.message(), Catch::Contains("Cos") && Catch::Contains("Sin") && Catch::Contains("com.example.Custom"));

  graph::model_builder old{5};  // Add exists from opset 7 on in this build
  auto z = old.input("z", dtype::float32, {2});
  old.output(old.node("Add", {z, z}));
  st = open_status(save(old, "old_opset.onnx"));
  REQUIRE(st.code() == errc::unsupported);
  CHECK_THAT(st.message(), Catch::Contains("Add at opset 5"));
}

TEST_CASE("a domain without an opset import is an error") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2});
  b.output(b.node({"com.unknown", "Thing"}, {x}));
  auto st = open_status(save(b, "no_import.onnx"));
  REQUIRE_FALSE(st.ok());
  CHECK_THAT(st.message(), Catch::Contains("com.unknown"));
}

TEST_CASE("a value defined twice is an error") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2});
  b.node("Relu", {x}, {}, std::vector<std::string>{"y"});
  b.node("Relu", {x}, {}, std::vector<std::string>{"y"});
  b.output("y");
  auto st = open_status(save(b, "twice.onnx"));
  REQUIRE(st.code() == errc::invalid_model);
  CHECK_THAT(st.message(), Catch::Contains("'y'"));
}

TEST_CASE("wrong inputs at run time are errors naming the input") {
  auto b = relu_add();
  basic_session<small> s{save(b, "inputs.onnx")};
  std::vector<value> outs;
  auto run = [&](std::vector<named_value> in) { return s.run(std::span<const named_value>(in), outs); };

  auto st = run({{"y", tensor::from<float>({1, 2, 3}, {1, 3})}});
  CHECK(st.code() == errc::invalid_argument);
  CHECK_THAT(st.message(), Catch::Contains("no input 'y'") && Catch::Contains("x (float32 [N,3])"));

  st = run({});
  CHECK_THAT(st.message(), Catch::Contains("'x' is missing"));

  st = run({{"x", tensor::from<double>({1, 2, 3}, {1, 3})}});
  CHECK_THAT(st.message(), Catch::Contains("dtype float64, expected float32"));

  st = run({{"x", tensor::from<float>({1, 2, 3, 4}, {1, 4})}});
  CHECK_THAT(st.message(), Catch::Contains("shape [1,4], expected [N,3]"));

  REQUIRE(run({{"x", tensor::from<float>({-1, 2, -3, 4, -5, 6}, {2, 3})}}).ok());
  CHECK(outs[0].as_tensor().values<float>()[1] == 4.0f);
}
