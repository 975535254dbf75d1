// onyx/graph/weights_in_place.hpp: a model file's large initializers viewed
// in its mapping. The rewrite on the wire (which tensors move, where their
// bytes are said to be), and sessions opened from the file against sessions
// opened from the same bytes in memory (which protobuf copies as before).
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/tensor_proto.hpp"
#include "onyx/graph/weights_in_place.hpp"
#include "onyx/session.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;

namespace {

constexpr std::int64_t big = 20000;  // 80000 bytes of float: past in_place_smallest

/// y = x * W + b, W [big] (moved), b [big] given as float_data (not raw_data,
/// so left alone), and a small raw_data constant c [4] (left alone too).
onnx::ModelProto model_with_weights() {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, big});
  auto w = b.initializer("W", test::random_tensor({big}, -1, 1, 41));
  auto prod = b.node("Mul", {x, w});
  auto sum = b.node("Add", {prod, b.initializer("c", test::random_tensor({1}, -1, 1, 42))});
  b.output(sum);
  onnx::ModelProto m = b.proto();
  // A second large initializer in float_data: not raw_data, so not moved.
  onnx::TensorProto* t = m.mutable_graph()->add_initializer();
  t->set_name("unused_typed");
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(big);
  for (std::int64_t i = 0; i < big; ++i) t->add_float_data(static_cast<float>(i));
  return m;
}

const onnx::TensorProto* initializer(const onnx::ModelProto& m, const std::string& name) {
  for (const auto& t : m.graph().initializer())
    if (t.name() == name) return &t;
  return nullptr;
}

std::string entry(const onnx::TensorProto& t, const std::string& key) {
  for (const auto& kv : t.external_data())
    if (kv.key() == key) return kv.value();
  return "(none)";
}

std::string write(const std::string& name, const std::string& bytes) {
  const auto path = test::temp_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

std::vector<float> run(const session_core& s, const tensor& x) {
  const std::vector<named_value> in{{"x", x}};
  std::vector<value> out;
  REQUIRE(s.run(std::span<const named_value>(in), out).ok());
  auto v = out[0].as_tensor().values<float>();
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("weights_in_place: a large raw_data becomes external data at its own bytes in the file") {
  const onnx::ModelProto source = model_with_weights();
  const std::string bytes = source.SerializeAsString();
  auto moved = graph::move_weights_out(bytes);
  REQUIRE(moved);
  CHECK(moved->size() < bytes.size() - big * 4 + 200);  // W's 80000 bytes gone, a few entries added
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(*moved));
  const auto* w = initializer(m, "W");
  REQUIRE(w);
  CHECK(!w->has_raw_data());
  CHECK(w->data_location() == onnx::TensorProto::EXTERNAL);
  CHECK(entry(*w, "location") == graph::in_place_location);
  const std::size_t offset = std::stoull(entry(*w, "offset")), length = std::stoull(entry(*w, "length"));
  REQUIRE(length == big * 4);
  REQUIRE(offset + length <= bytes.size());
  const auto* original = initializer(source, "W");
  CHECK(std::memcmp(bytes.data() + offset, original->raw_data().data(), length) == 0);
  // The others as they were: a small raw_data and typed data.
  const auto* c = initializer(m, "c");
  REQUIRE(c);
  CHECK(c->has_raw_data());
  CHECK(c->data_location() == onnx::TensorProto::DEFAULT);
  const auto* typed = initializer(m, "unused_typed");
  REQUIRE(typed);
  CHECK(typed->float_data_size() == big);
  CHECK(typed->external_data_size() == 0);
  // Everything else survives the walk: same graph, same nodes.
  CHECK(m.graph().node_size() == 2);
  CHECK(m.opset_import_size() == 1);
}

TEST_CASE("weights_in_place: nothing to move, external data already, and bytes that are not wire format") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {4});
  b.output(b.node("Add", {x, b.initializer("small", test::random_tensor({4}, -1, 1, 43))}));
  CHECK(!graph::move_weights_out(b.proto().SerializeAsString()));  // no raw_data large enough

  onnx::ModelProto m = model_with_weights();
  onnx::TensorProto* w = m.mutable_graph()->mutable_initializer(0);
  REQUIRE(w->name() == "W");
  w->set_data_location(onnx::TensorProto::EXTERNAL);  // raw_data and external together: left for the loader to refuse
  auto moved = graph::move_weights_out(m.SerializeAsString());
  CHECK(!moved);

  CHECK(!graph::move_weights_out("\xff\xff\xff"));           // a bad key
  std::string cut = model_with_weights().SerializeAsString();
  CHECK(!graph::move_weights_out(cut.substr(0, cut.size() / 2)));  // a length past the end
}

TEST_CASE("weights_in_place: a session from the file gives the outputs of a session from the bytes") {
  const std::string bytes = model_with_weights().SerializeAsString();
  const std::string path = write("weights_in_place.onnx", bytes);
  auto from_file = session::open(path, {.threads = 1});
  REQUIRE(from_file.ok());
  auto from_bytes = session::open_bytes(bytes, {.threads = 1});
  REQUIRE(from_bytes.ok());
  const tensor x = test::random_tensor({1, big}, -2, 2, 44);
  const auto a = run(**from_file, x), b = run(**from_bytes, x);
  REQUIRE(a.size() == b.size());
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  std::filesystem::remove(path);
}

TEST_CASE("weights_in_place: a large raw_data of the wrong size is refused, naming the tensor") {
  onnx::ModelProto m = model_with_weights();
  onnx::TensorProto* w = m.mutable_graph()->mutable_initializer(0);
  REQUIRE(w->name() == "W");
  w->set_dims(0, big + 1);  // 80004 bytes expected, 80000 there
  const std::string path = write("weights_in_place_wrong.onnx", m.SerializeAsString());
  auto s = session::open(path, {.threads = 1});
  REQUIRE(!s.ok());
  const std::string message = std::move(s).error().message();
  INFO(message);
  CHECK(message.find("tensor 'W'") != std::string::npos);
  CHECK(message.find("raw_data (bytes) has 80000, expected 80004") != std::string::npos);  // as when it was copied
  CHECK(message.find("80000") != std::string::npos);
  CHECK(message.find("80004") != std::string::npos);
  std::filesystem::remove(path);
}
