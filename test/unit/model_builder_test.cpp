// Tests for onyx/graph/model_builder.hpp: what the builder writes survives a
// protobuf round trip field by field (inputs and symbolic dims, initializers,
// nodes, every attribute kind, subgraphs, opset imports, generated names).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "onyx/graph/model_builder.hpp"

namespace fs = std::filesystem;
using namespace onyx;
using namespace onyx::graph;

namespace {

onnx::ModelProto reparsed(const model_builder& b) {
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(b.serialize()));
  return m;
}

const onnx::AttributeProto& attribute_of(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return a;
  FAIL("node " << n.name() << " has no attribute " << name);
  throw;  // not reached
}

}  // namespace

TEST_CASE("model_builder writes inputs, initializers, nodes and outputs", "[model_builder]") {
  model_builder b{21};
  auto x = b.input("x", dtype::float32, {"N", 3, 8, 8});
  tensor weights = tensor::zeros(dtype::float32, {4, 3, 3, 3});
  weights.data<float>()[5] = 2.5f;
  auto w = b.initializer("w", weights);
  auto y = b.node("Conv", {x, w}, {{"kernel_shape", std::vector<std::int64_t>{3, 3}}, {"group", 1}});
  auto halves = b.node("Split", {y}, {{"axis", 1}}, 2);
  b.output(halves[0], dtype::float32, {"N", 2, 6, 6});
  b.output(halves[1]);

  CHECK(x == "x");
  CHECK(w == "w");
  CHECK(y == "n0_out0");
  CHECK(halves == std::vector<std::string>{"n1_out0", "n1_out1"});

  onnx::ModelProto m = reparsed(b);
  CHECK(m.ir_version() == 10);
  REQUIRE(m.opset_import_size() == 1);
  CHECK(m.opset_import(0).domain().empty());
  CHECK(m.opset_import(0).version() == 21);
  const auto& g = m.graph();
  CHECK(g.name() == "main");

  REQUIRE(g.input_size() == 1);
  const auto& in = g.input(0).type().tensor_type();
  CHECK(in.elem_type() == static_cast<int>(dtype::float32));
  REQUIRE(in.shape().dim_size() == 4);
  CHECK(in.shape().dim(0).dim_param() == "N");
  CHECK_FALSE(in.shape().dim(0).has_dim_value());
  CHECK(in.shape().dim(3).dim_value() == 8);

  REQUIRE(g.initializer_size() == 1);
  onnx::TensorProto init = g.initializer(0);
  CHECK(init.name() == "w");
  auto t = tensor_from_proto(init);
  REQUIRE(t.ok());
  CHECK(t->shape() == extents{4, 3, 3, 3});
  CHECK(t->data<float>()[5] == 2.5f);

  REQUIRE(g.node_size() == 2);
  const auto& conv = g.node(0);
  CHECK(conv.op_type() == "Conv");
  CHECK(conv.domain().empty());
  CHECK(conv.name() == "n0");
  CHECK(std::vector<std::string>(conv.input().begin(), conv.input().end()) == std::vector<std::string>{"x", "w"});
  CHECK(conv.output(0) == "n0_out0");
  const auto& ks = attribute_of(conv, "kernel_shape");
  CHECK(ks.type() == onnx::AttributeProto::INTS);
  CHECK(std::vector<std::int64_t>(ks.ints().begin(), ks.ints().end()) == std::vector<std::int64_t>{3, 3});
  CHECK(attribute_of(conv, "group").type() == onnx::AttributeProto::INT);
  CHECK(attribute_of(conv, "group").i() == 1);
  CHECK(g.node(1).output_size() == 2);

  REQUIRE(g.output_size() == 2);
  CHECK(g.output(0).name() == "n1_out0");
  CHECK(g.output(0).type().tensor_type().shape().dim(1).dim_value() == 2);
  CHECK_FALSE(g.output(1).has_type());
}

TEST_CASE("model_builder attribute kinds", "[model_builder]") {
  model_builder b;
  auto x = b.input("x", dtype::float32, {});  // a scalar: rank 0, shape present
  b.node("Custom", {x},
         {{"i", std::int64_t{-7}},
          {"to", dtype::float16},
          {"f", 0.5},
          {"s", "constant"},
          {"str", std::string("text")},
          {"fs", std::vector<float>{1.5f, -2.f}},
          {"ss", std::vector<std::string>{"a", "b"}},
          {"t", tensor::from({std::int64_t{1}, std::int64_t{2}}, {2})}});
  const onnx::ModelProto m = reparsed(b);
  const auto& g = m.graph();
  CHECK(g.input(0).type().tensor_type().has_shape());
  CHECK(g.input(0).type().tensor_type().shape().dim_size() == 0);
  const auto& n = g.node(0);
  CHECK(attribute_of(n, "i").i() == -7);
  CHECK(attribute_of(n, "to").i() == static_cast<int>(dtype::float16));
  CHECK(attribute_of(n, "f").type() == onnx::AttributeProto::FLOAT);
  CHECK(attribute_of(n, "f").f() == 0.5f);
  CHECK(attribute_of(n, "s").type() == onnx::AttributeProto::STRING);
  CHECK(attribute_of(n, "s").s() == "constant");
  CHECK(attribute_of(n, "str").s() == "text");
  CHECK(attribute_of(n, "fs").floats_size() == 2);
  CHECK(attribute_of(n, "fs").floats(1) == -2.f);
  CHECK(attribute_of(n, "ss").strings(1) == "b");
  CHECK(attribute_of(n, "t").type() == onnx::AttributeProto::TENSOR);
  onnx::TensorProto tp = attribute_of(n, "t").t();
  auto t = tensor_from_proto(tp);
  REQUIRE(t.ok());
  CHECK(t->data<std::int64_t>()[1] == 2);
}

TEST_CASE("model_builder constants, omitted inputs, domains and name collisions", "[model_builder]") {
  model_builder b{17};
  b.import("com.microsoft", 1).import("", 19);  // re-importing replaces
  auto x = b.input("n0_out0", dtype::float32);  // a name the builder would generate
  auto c = b.constant(tensor::from({1.f, 2.f}, {2}));
  auto y = b.node("Clip", {x, "", c});
  auto z = b.node({"com.microsoft", "Gelu"}, {y});
  auto named = b.node("TopK", {z, c}, {}, std::vector<std::string>{"values", ""});
  b.output(z, dtype::float32);

  CHECK(c == "n0_out0_1");  // the user's name was taken first
  CHECK(y == "n1_out0");
  CHECK(named == std::vector<std::string>{"values", ""});

  onnx::ModelProto m = reparsed(b);
  CHECK(m.ir_version() == 9);  // raised from opset 17's IR 8
  REQUIRE(m.opset_import_size() == 2);
  CHECK(m.opset_import(0).version() == 19);
  CHECK(m.opset_import(1).domain() == "com.microsoft");
  const auto& g = m.graph();
  CHECK(g.input(0).type().tensor_type().elem_type() == static_cast<int>(dtype::float32));
  CHECK_FALSE(g.input(0).type().tensor_type().has_shape());  // unknown rank
  CHECK(g.node(0).op_type() == "Constant");
  CHECK(attribute_of(g.node(0), "value").t().dims(0) == 2);
  CHECK(g.node(1).input(1).empty());
  CHECK(g.node(2).domain() == "com.microsoft");
  CHECK(g.node(3).output(1).empty());
  CHECK_FALSE(g.output(0).type().tensor_type().has_shape());
}

TEST_CASE("model_builder subgraphs share the model's names", "[model_builder]") {
  model_builder b;
  auto cond = b.input("cond", dtype::boolean, {});
  auto x = b.input("x", dtype::float32, {2});

  graph_builder then_body = b.subgraph("then");
  then_body.output(then_body.node("Relu", {x}), dtype::float32, {2});  // x from the outer scope
  graph_builder else_body = b.subgraph("else");
  else_body.output(else_body.node("Neg", {x}));
  auto y = b.node("If", {cond}, {{"then_branch", then_body}, {"else_branch", else_body}});
  b.output(y);

  auto seq = b.input("s", graph_builder::sequence_type(graph_builder::tensor_type(dtype::int64, {"K"})));
  b.output(b.node("SequenceLength", {seq}), graph_builder::optional_type(graph_builder::tensor_type(dtype::int64, {})));

  const onnx::ModelProto m = reparsed(b);
  const auto& g = m.graph();
  const auto& iff = g.node(0);
  CHECK(iff.op_type() == "If");
  const auto& then_g = attribute_of(iff, "then_branch");
  CHECK(then_g.type() == onnx::AttributeProto::GRAPH);
  CHECK(then_g.g().name() == "then");
  CHECK(then_g.g().node(0).op_type() == "Relu");
  CHECK(then_g.g().node(0).input(0) == "x");
  CHECK(then_g.g().output(0).type().tensor_type().shape().dim(0).dim_value() == 2);
  const auto& else_g = attribute_of(iff, "else_branch").g();
  // Numbered in one sequence: then's Relu n0, else's Neg n1, If n2.
  CHECK(then_g.g().node(0).output(0) == "n0_out0");
  CHECK(else_g.node(0).output(0) == "n1_out0");
  CHECK(iff.output(0) == "n2_out0");

  CHECK(g.input(2).type().sequence_type().elem_type().tensor_type().shape().dim(0).dim_param() == "K");
  CHECK(g.output(1).type().optional_type().elem_type().tensor_type().elem_type() == static_cast<int>(dtype::int64));
}

TEST_CASE("model_builder saves files that read back identically", "[model_builder]") {
  model_builder b{13};
  b.output(b.node("Identity", {b.input("x", dtype::int32, {3})}));
  std::string folder = (fs::temp_directory_path() / "onyx_model_builder_XXXXXX").string();
  REQUIRE(::mkdtemp(folder.data()) != nullptr);
  const fs::path file = fs::path(folder) / "m.onnx";
  REQUIRE(b.save(file).ok());
  onnx::ModelProto m;
  REQUIRE(read_proto_file(file, m).ok());
  CHECK(m.SerializeAsString() == b.serialize());
  CHECK(m.ir_version() == 7);
  fs::remove_all(folder);

  auto bad = b.save(fs::path(folder) / "no" / "such" / "folder.onnx");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.code() == errc::io);
  CHECK_THAT(bad.message(), Catch::Contains("folder.onnx"));
}
