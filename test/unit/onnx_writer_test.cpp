// graph/onnx_writer.hpp and session_options::optimized_model_filepath: the
// optimized graph written as .onnx (fused ops in onyx.fused), loaded again
// with the same nodes and the same outputs.
#include <catch2/catch.hpp>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

std::vector<std::string> ops_of(const session& s) {
  std::vector<std::string> ops;
  for (const auto& n : s.nodes()) ops.push_back(n.op);
  return ops;
}

}  // namespace

TEST_CASE("optimized_model_filepath: the fused graph as .onnx, loaded again") {
  graph::model_builder b{11};  // an old opset: Squeeze's axes become an input at normalization
  auto x = b.input("x", dtype::float32, {"N", 2, 4, 4});
  std::vector<float> w(3 * 2 * 3 * 3);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
  auto y = b.node("Conv", {x, b.initializer("w", tensor::from<float>(w, {3, 2, 3, 3})),
                           b.initializer("b", tensor::from<float>({0.5f, -0.5f, 0.25f}, {3}))},
                  {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto r = b.node("Relu", {y});
  auto p = b.node("GlobalAveragePool", {r});
  b.output(b.node("Squeeze", {p}, {{"axes", std::vector<std::int64_t>{2, 3}}}));
  b.proto().set_doc_string("a small network");
  const auto model = onyx::test::temp_path("writer_in.onnx");
  REQUIRE(b.save(model).ok());
  const auto saved = onyx::test::temp_path("writer_out.onnx");

  session original(model, {.threads = 1, .optimized_model_filepath = saved});
  REQUIRE(std::filesystem::exists(saved));
  session again(saved, {.threads = 1, .optimization_level = graph::passes::optimization_level::none});
  CHECK(ops_of(again) == ops_of(original));
  CHECK(ops_of(again).front() == "onyx.fused.Conv");
  CHECK(again.metadata().description == "a small network");
  REQUIRE(again.inputs().size() == 1);
  CHECK(again.inputs()[0].type.shape.str() == "[N,2,4,4]");

  std::vector<float> xs(2 * 2 * 4 * 4);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>((i * 37) % 11) - 5.0f;
  auto a = original.run({{"x", tensor::from<float>(xs, {2, 2, 4, 4})}});
  auto c = again.run({{"x", tensor::from<float>(xs, {2, 2, 4, 4})}});
  REQUIRE(a[0].as_tensor().shape() == extents{2, 3});
  const auto va = a[0].as_tensor().values<float>(), vc = c[0].as_tensor().values<float>();
  CHECK(std::vector<float>(va.begin(), va.end()) == std::vector<float>(vc.begin(), vc.end()));

  // The file names onyx.fused in its opset imports, and ONNX's default domain
  // at an opset where Squeeze takes its axes as an input.
  onnx::ModelProto mp;
  REQUIRE(graph::read_proto_file(saved, mp).ok());
  std::map<std::string, std::int64_t> opsets;
  for (const auto& o : mp.opset_import()) opsets[o.domain()] = o.version();
  CHECK(opsets.count("onyx.fused") == 1);
  CHECK(opsets.at("") >= 13);
  CHECK(mp.graph().node(0).domain() == "onyx.fused");
}

TEST_CASE("optimized_model_filepath: an unwritable path is a clear error") {
  graph::model_builder b{17};
  b.output(b.node("Relu", {b.input("x", dtype::float32, {2})}));
  const auto model = onyx::test::temp_path("writer_bad.onnx");
  REQUIRE(b.save(model).ok());
  auto s = session::open(model, {.optimized_model_filepath = "/nonexistent-dir/m.onnx"});
  REQUIRE(!s.ok());
  CHECK(s.error().code() == errc::io);
  CHECK(s.error().message().find("/nonexistent-dir/m.onnx") != std::string::npos);
}
