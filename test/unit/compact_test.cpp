// graph/compact.hpp, runtime/optimize.hpp and graph/tensor_file.hpp: an
// optimized model written in the compact form reads back into a session
// whose outputs equal, bit for bit, those of a session over the .onnx file;
// the kernels optimize_model reports are those the optimized graph runs; a
// truncated or corrupted file is an error, never a crash; a table that lacks
// an op says which. TensorProto files written without protobuf are byte for
// byte those protobuf writes, and read back.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "onyx/graph/compact.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/tensor_file.hpp"
#include "onyx/graph/tensor_proto.hpp"
#include "onyx/runtime/optimize.hpp"
#include "onyx/session.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;
using test::random_tensor;

/// x [N, 3, 8, 8] (N symbolic) -> Conv(3x3) -> Relu -> + x-sized constant
/// path -> Shape-dependent Reshape -> If (cond) on two Mul/Neg bodies that
/// capture an outer value; a string Identity on the side.
std::filesystem::path build_model() {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {"N", 3, 8, 8});
  auto cond = b.input("cond", dtype::boolean, {});
  auto words = b.input("words", dtype::string, {2});
  auto w = b.initializer("w", random_tensor<float>({4, 3, 3, 3}, -1, 1, 1));
  auto bias = b.initializer("b", random_tensor<float>({4}, -1, 1, 2));
  auto y = b.node("Relu", {b.node("Conv", {x, w, bias}, {{"pads", ints{1, 1, 1, 1}}})});
  auto scale = b.initializer("scale", random_tensor<float>({1, 4, 1, 1}, 0.5, 2, 3));
  auto flat = b.node("Reshape", {b.node("Mul", {y, scale}), b.constant(tensor::from<std::int64_t>({0, -1}, {2}))});
  graph::graph_builder then_body = b.subgraph("then");
  then_body.output(then_body.node("Mul", {flat, flat}), dtype::float32);
  graph::graph_builder else_body = b.subgraph("else");
  else_body.output(else_body.node("Neg", {flat}), dtype::float32);
  b.output(b.node("If", {cond}, {{"then_branch", then_body}, {"else_branch", else_body}}));
  b.output(b.node("Identity", {words}));
  auto path = test::temp_path("compact_model.onnx");
  REQUIRE(b.save(path).ok());
  return path;
}

std::vector<named_value> inputs_for(bool cond) {
  return {{"x", random_tensor<float>({2, 3, 8, 8}, -1, 1, 7)},
          {"cond", tensor::scalar(cond)},
          {"words", tensor::from<std::string>({"onyx", "compact"}, {2})}};
}

std::string compact_bytes(const std::filesystem::path& onnx) {
  auto m = graph::load_model(onnx, session::all_ops());
  REQUIRE(m.ok());
  auto opt = runtime::optimize_model(std::move(m).value(), session::all_ops());
  REQUIRE(opt.ok());
  auto bytes = graph::compact::write(opt->model);
  REQUIRE(bytes.ok());
  return std::move(bytes).value();
}

std::span<const std::byte> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

}  // namespace

TEST_CASE("compact: an optimized model reads back and runs as the .onnx does, bit for bit") {
  const auto path = build_model();
  const std::string bytes = compact_bytes(path);
  auto m = graph::compact::read(as_bytes(bytes), nullptr, session::all_ops());
  REQUIRE(m.ok());
  CHECK(m->optimized);
  auto compact = session::open(std::move(m).value(), {.threads = 1});
  REQUIRE(compact.ok());
  session original(path, {.threads = 1});
  // The compact model's nodes are the optimized graph's: the Relu was fused.
  CHECK(test::ops_of(**compact) == test::ops_of(original));
  CHECK(std::find(test::ops_of(original).begin(), test::ops_of(original).end(), "onyx.fused.Conv") !=
        test::ops_of(original).end());
  // Symbolic input dims survive.
  CHECK((*compact)->inputs()[0].type.shape.str() == "[N,3,8,8]");
  for (bool cond : {true, false}) {
    auto want = original.run(inputs_for(cond));
    std::vector<value> got;
    REQUIRE((*compact)->run(inputs_for(cond), got).ok());
    REQUIRE(got.size() == want.size());
    const auto& a = got[0].as_tensor();
    const auto& e = want[0].as_tensor();
    REQUIRE(a.shape() == e.shape());
    CHECK(std::memcmp(a.raw(), e.raw(), e.bytes()) == 0);
    CHECK(got[1].as_tensor().values<std::string>()[1] == "compact");
  }
}

TEST_CASE("compact: the file loader maps it; optimize_model lists the kernels the graphs run") {
  const auto path = build_model();
  auto m = graph::load_model(path, session::all_ops());
  REQUIRE(m.ok());
  auto opt = runtime::optimize_model(std::move(m).value(), session::all_ops());
  REQUIRE(opt.ok());
  std::vector<std::string> ops;
  for (const auto& k : opt->kernels) ops.push_back(k.op->qualified_name() + ops::to_string(k.sig));
  // Main graph, then each body's: If's bodies are optimized too. Conv+Relu is
  // one fused kernel.
  CHECK(std::find(ops.begin(), ops.end(), "onyx.fused.Conv(float32)") != ops.end());
  CHECK(std::find(ops.begin(), ops.end(), "Relu(float32)") == ops.end());
  CHECK(std::find(ops.begin(), ops.end(), "Neg(float32)") != ops.end());
  CHECK(std::find(ops.begin(), ops.end(), "Identity(string)") != ops.end());

  const auto file = test::temp_path("compact_model.onyx");
  REQUIRE(graph::compact::write_file(opt->model, file).ok());
  auto s = session_core::open<graph::compact::loader>(file, session::all_ops());
  REQUIRE(s.ok());
  std::vector<value> got;
  REQUIRE((*s)->run(inputs_for(true), got).ok());
  CHECK(got[0].as_tensor().shape() == extents{2, 256});
}

TEST_CASE("compact: every truncation and a corrupted byte anywhere are errors, never a crash") {
  const std::string bytes = compact_bytes(build_model());
  for (std::size_t n = 0; n < bytes.size(); n += (n < 4096 ? 1 : 997)) {
    auto m = graph::compact::read(as_bytes(bytes.substr(0, n)), nullptr, session::all_ops());
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().code() == errc::invalid_model);
  }
  // A flipped byte in the structure either still decodes to a valid model or
  // is a clear error; the header's size fields are checked.
  std::mt19937 gen(5);
  const std::size_t structure_end = 64 + [&] {
    std::uint64_t len = 0;
    std::memcpy(&len, bytes.data() + 32, 8);
    return static_cast<std::size_t>(len);
  }();
  for (int i = 0; i < 2000; ++i) {
    std::string bad = bytes;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, structure_end - 1)(gen);
    bad[at] = static_cast<char>(bad[at] ^ (1 << (i % 8)));
    auto m = graph::compact::read(as_bytes(bad), nullptr, session::all_ops());
    if (!m.ok()) CHECK_FALSE(m.error().message().empty());
  }
  std::string wrong = bytes;
  wrong[0] = 'X';
  auto m = graph::compact::read(as_bytes(wrong), nullptr, session::all_ops());
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error().message(), Catch::Contains("not an onyx compact model"));
}

TEST_CASE("compact: a table without one of the model's ops names it") {
  const std::string bytes = compact_bytes(build_model());
  const op_table all = session::all_ops();
  std::vector<op_info> kept;
  for (const auto& op : all.ops)
    if (op.domain != "onyx.fused") kept.push_back(op);
  auto m = graph::compact::read(as_bytes(bytes), nullptr, op_table{kept, all.backends});
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().code() == errc::unsupported);
  CHECK_THAT(m.error().message(), Catch::Contains("onyx.fused.Conv (opset 1)"));
}

TEST_CASE("tensor_file: TensorProto files without protobuf equal protobuf's, and read back") {
  const std::vector<tensor> tensors{
      random_tensor<float>({2, 3, 4}, -1, 1, 9), tensor::from<std::int64_t>({-5, 0, 1ll << 40}, {3}),
      tensor::from<std::string>({"a", "", "ccc"}, {1, 3}), tensor::scalar(true),
      tensor::zeros(dtype::float16, {2, 0}), tensor::from<std::uint8_t>({1, 2, 255}, {3})};
  for (const auto& t : tensors) {
    const std::string mine = graph::serialize_tensor_proto(t, "v");
    CHECK(mine == graph::tensor_to_proto(t, "v").SerializeAsString());
    std::string name;
    auto back = graph::parse_tensor_proto(mine, &name);
    REQUIRE(back.ok());
    CHECK(name == "v");
    CHECK(back->type() == t.type());
    CHECK(back->shape() == t.shape());
    if (t.type() == dtype::string)
      CHECK(back->values<std::string>()[2] == "ccc");
    else
      CHECK(std::memcmp(back->raw(), t.raw(), t.bytes()) == 0);
    for (std::size_t n = 0; n < mine.size(); ++n) {
      auto cut = graph::parse_tensor_proto(std::string_view(mine).substr(0, n));
      if (cut.ok()) CHECK(cut->size() <= t.size());  // a prefix may be a valid smaller message; no crash
    }
  }
  // Typed fields (float_data, int64_data) as other writers use them.
  onnx::TensorProto p;
  p.set_data_type(1);
  p.add_dims(2);
  p.add_float_data(1.5f);
  p.add_float_data(-2.0f);
  auto f = graph::parse_tensor_proto(p.SerializeAsString());
  REQUIRE(f.ok());
  CHECK(f->values<float>()[1] == -2.0f);
  p.add_dims(1000000000);
  p.add_dims(1000000000);
  auto huge = graph::parse_tensor_proto(p.SerializeAsString());
  REQUIRE_FALSE(huge.ok());
  CHECK_THAT(huge.error().message(), Catch::Contains("too large"));
}
