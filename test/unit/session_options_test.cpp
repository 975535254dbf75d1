// Session features: optimization levels, free dimensions, terminating a run,
// model metadata (runtime/session.hpp).
#include <catch2/catch.hpp>

#include <thread>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using level = graph::passes::optimization_level;

std::filesystem::path conv_model() {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {"batch", 1, 3, 3});
  auto w = b.initializer("w", tensor::from<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}));
  auto scale = b.initializer("scale", tensor::from<float>({2.0f}, {}));
  auto y = b.node("Conv", {x, w}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  b.output(b.node("Relu", {b.node("Mul", {y, scale})}));
  auto& p = b.proto();
  p.set_producer_name("session_options_test");
  p.set_producer_version("3");
  p.set_model_version(12);
  p.mutable_graph()->set_name("conv");
  auto* e = p.add_metadata_props();
  e->set_key("k");
  e->set_value("v");
  const auto path = onyx::test::temp_path("session_options_conv.onnx");
  REQUIRE(b.save(path).ok());
  return path;
}

std::vector<std::string> ops_of(const session& s) {
  std::vector<std::string> ops;
  for (const auto& n : s.nodes()) ops.push_back(n.op);
  return ops;
}

}  // namespace

TEST_CASE("optimization levels: none and basic keep the model's ops, extended fuses") {
  const auto model = conv_model();
  // x = all ones, pads 1: output (i, j) sums the weights w[a][b] that land on
  // the input (Conv is a correlation: a in [1-i, 3-i) within 0..2, likewise
  // b), times 2. Top left: 5+6+8+9 = 28; top: 4+5+6+7+8+9 = 39; centre: 45.
  const std::vector<float> expected{56, 78, 48, 66, 90, 54, 32, 42, 24};
  for (auto [l, ops] : {std::pair{level::none, std::vector<std::string>{"Conv", "Mul", "Relu"}},
                        std::pair{level::basic, std::vector<std::string>{"Conv", "Mul", "Relu"}},
                        std::pair{level::extended, std::vector<std::string>{"onyx.fused.Conv"}},
                        std::pair{level::all, std::vector<std::string>{"onyx.fused.Conv"}}}) {
    session s(model, {.threads = 1, .optimization_level = l});
    CHECK(ops_of(s) == ops);
    auto out = s.run({{"x", tensor::from<float>(std::vector<float>(9, 1.0f), {1, 1, 3, 3})}});
    auto v = out[0].as_tensor().values<float>();
    CHECK(std::vector<float>(v.begin(), v.end()) == expected);
  }
  session off(model, {.optimize = false});
  CHECK(ops_of(off) == std::vector<std::string>{"Conv", "Mul", "Relu"});
}

TEST_CASE("free_dimensions fix symbolic input dims by name") {
  const auto model = conv_model();
  session s(model, {.threads = 1, .free_dimensions = {{"batch", 3}}});
  CHECK(s.inputs()[0].type.shape.str() == "[3,1,3,3]");
  CHECK(s.outputs()[0].type.shape.str() == "[3,1,3,3]");
  std::vector<value> outs;
  std::vector<named_value> wrong{{"x", tensor::zeros(dtype::float32, {2, 1, 3, 3})}};
  status st = s.run(std::span<const named_value>(wrong), outs);
  CHECK(st.code() == errc::invalid_argument);
  CHECK(st.message() == "input 'x' has shape [2,1,3,3], expected [3,1,3,3]");

  auto bad = session::open(model, {.free_dimensions = {{"bacth", 3}}});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("free dimension 'bacth' is not a symbolic dim of the model's inputs "
                                   "(their symbolic dims are 'batch')") != std::string::npos);
}

TEST_CASE("run_options::terminate stops a run with errc::cancelled; the session stays usable") {
  const auto model = conv_model();
  session s(model, {.threads = 2});
  std::atomic<bool> stop{true};
  std::vector<value> outs;
  std::vector<named_value> in{{"x", tensor::zeros(dtype::float32, {1, 1, 3, 3})}};
  status st = s.run(std::span<const named_value>(in), outs, run_options{&stop});
  CHECK(st.code() == errc::cancelled);
  CHECK(st.message().find("terminated") != std::string::npos);
  CHECK(st.message().find("before ") != std::string::npos);  // names the node it stopped before
  stop = false;
  REQUIRE(s.run(std::span<const named_value>(in), outs, run_options{&stop}).ok());
  CHECK(outs.size() == 1);
}

TEST_CASE("run_options::terminate from another thread stops a long run promptly") {
  graph::model_builder b{17};
  // 200 MatMuls of 256x256: each a few milliseconds, the whole run far longer
  // than the wait before terminating.
  auto x = b.input("x", dtype::float32, {256, 256});
  std::vector<float> w(256 * 256, 1.0f / 256);
  auto wi = b.initializer("w", tensor::from<float>(w, {256, 256}));
  for (int i = 0; i < 200; ++i) x = b.node("MatMul", {x, wi});
  b.output(x);
  const auto model = onyx::test::temp_path("terminate_long.onnx");
  REQUIRE(b.save(model).ok());
  session s(model, {.threads = 1, .optimization_level = level::none});
  std::vector<named_value> in{{"x", tensor::from<float>(std::vector<float>(256 * 256, 1.0f), {256, 256})}};
  std::vector<value> outs;
  REQUIRE(s.run(std::span<const named_value>(in), outs).ok());  // plans, and checks the whole run works

  std::atomic<bool> stop{false};
  status st;
  std::thread t([&] { st = s.run(std::span<const named_value>(in), outs, run_options{&stop}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop = true;
  t.join();
  CHECK(st.code() == errc::cancelled);
  REQUIRE(s.run(std::span<const named_value>(in), outs).ok());
  CHECK(outs[0].as_tensor().data<float>()[0] == Approx(1.0f));  // each MatMul averages ones to one
}

TEST_CASE("metadata: the model's description") {
  session s(conv_model(), {.threads = 1});
  const auto m = s.metadata();
  CHECK(m.producer == "session_options_test");
  CHECK(m.producer_version == "3");
  CHECK(m.version == 12);
  CHECK(m.graph_name == "conv");
  CHECK(m.custom == std::map<std::string, std::string>{{"k", "v"}});
}
