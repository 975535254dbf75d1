// graph::passes::eliminate_identity: Identity and inference Dropout nodes go
// and their readers read the input; a Dropout whose mask is read or whose
// training mode is not a constant false stays, as does an Identity that
// copies a graph input or another graph output to a graph output. Each case
// runs optimized and not and compares the outputs.
#include <catch2/catch.hpp>

#include <cstring>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using list = std::vector<std::string>;
using test::ops_of;
using test::random_tensor;

bool same_bits(const tensor& a, const tensor& b) {
  return a.type() == b.type() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

/// Saves `b`, runs it optimized and not on x [2, 3, 4], checks every output
/// agrees bit for bit, and returns the optimized session's op types.
list run(graph::model_builder& b, const std::string& file, std::vector<named_value> extra = {}) {
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  session optimized(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  std::vector<named_value> in{{"x", random_tensor({2, 3, 4}, -2, 2, 1)}};
  for (auto& e : extra) in.push_back(std::move(e));
  auto got = optimized.run(in);
  auto want = plain.run(in);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_bits(got[i].as_tensor(), want[i].as_tensor()));
  return ops_of(optimized);
}

}  // namespace

TEST_CASE("eliminate_identity removes Identity and inference Dropout", "[passes][eliminate_identity]") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {2, 3, 4});
  auto s = b.node("Softmax", {x});
  auto i = b.node("Identity", {s});
  auto t = b.node("Transpose", {i}, {{"perm", std::vector<std::int64_t>{2, 0, 1}}});
  auto d = b.node("Dropout", {t, b.initializer("ratio", tensor::scalar(0.25f))});
  // the Dropout's output is a graph output: the Transpose writes it directly
  b.output(d);
  CHECK(run(b, "elim_chain.onnx") == list{"Softmax", "Transpose"});
}

TEST_CASE("eliminate_identity: a graph output also read by a node", "[passes][eliminate_identity]") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {2, 3, 4});
  auto s = b.node("Softmax", {x});
  auto y = b.node("Identity", {s});
  b.output(y);
  b.output(b.node("Transpose", {y}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}}));
  CHECK(run(b, "elim_output_read.onnx") == list{"Softmax", "Transpose"});
}

TEST_CASE("eliminate_identity keeps what must copy or may drop", "[passes][eliminate_identity]") {
  SECTION("an Identity of a graph input to a graph output") {
    graph::model_builder b{13};
    b.output(b.node("Identity", {b.input("x", dtype::float32, {2, 3, 4})}));
    CHECK(run(b, "elim_input.onnx") == list{"Identity"});
  }
  SECTION("an Identity of a graph output to another") {
    graph::model_builder b{13};
    auto s = b.node("Softmax", {b.input("x", dtype::float32, {2, 3, 4})});
    b.output(s);
    b.output(b.node("Identity", {s}));
    CHECK(run(b, "elim_two_outputs.onnx") == list{"Softmax", "Identity"});
  }
  SECTION("a Dropout whose mask is read") {
    graph::model_builder b{13};
    auto s = b.node("Softmax", {b.input("x", dtype::float32, {2, 3, 4})});
    auto d = b.node("Dropout", {s}, {}, 2);
    b.output(b.node("Softmax", {d[0]}));
    b.output(d[1]);
    CHECK(run(b, "elim_mask.onnx") == list{"Softmax", "Dropout", "Softmax"});
  }
  SECTION("a Dropout whose training mode is an input, and one where it is a constant false") {
    graph::model_builder b{13};
    auto s = b.node("Softmax", {b.input("x", dtype::float32, {2, 3, 4})});
    auto ratio = b.initializer("ratio", tensor::scalar(0.0f));
    auto d1 = b.node("Dropout", {s, ratio, b.input("training", dtype::boolean, {})});
    auto d2 = b.node("Dropout", {d1, ratio, b.initializer("off", tensor::scalar(false))});
    b.output(b.node("Softmax", {d2}));
    CHECK(run(b, "elim_training.onnx", {{"training", tensor::scalar(false)}}) == list{"Softmax", "Dropout", "Softmax"});
  }
}
