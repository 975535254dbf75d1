// graph::passes::compute_float16_in_float32: a float16 CNN's graph after the
// pass (Casts at the edges, constants and nodes retyped), its outputs against
// the same model without the pass and against the model in float32, nodes
// without a float32 kernel left alone, bfloat16, and where Casts go when a
// region is interrupted.
//
// Tolerances: with the pass, the CNN runs the float32 kernels on the float16
// weights and input and rounds once at the output, so it equals the float32
// model's output rounded to float16 (checked to 1 float16 ulp; in practice
// bit for bit). Against op-by-op float16 (the pass off), outputs differ by
// the rounding of the intermediates: checked with rtol 1e-2, atol 1e-2.
#include <catch2/catch.hpp>
#include <filesystem>

#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/passes/compute_float16_in_float32.hpp"
#include "onyx/ops/cast.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;
using list = std::vector<std::string>;
using graph::passes::match;

/// Values uniform in [lo, hi), rounded to float16 (so every dtype holds them exactly).
std::vector<float> halves(std::size_t n, double lo, double hi, unsigned seed) {
  auto v = test::random_values<float>(n, lo, hi, seed);
  for (auto& x : v) x = to_float(to_float16(x));
  return v;
}

/// `v` as a tensor of type `t` (float32, float16 or bfloat16).
tensor typed(const std::vector<float>& v, const extents& e, dtype t) {
  tensor r = tensor::zeros(t, e);
  narrow(std::span<const float>(v), r);
  return r;
}

std::vector<float> as_floats(const tensor& t) {
  std::vector<float> v(static_cast<std::size_t>(t.size()));
  widen(t, std::span<float>(v));
  return v;
}

tensor random_tensor(const extents& e, dtype t, double lo, double hi, unsigned seed) {
  return typed(halves(static_cast<std::size_t>(element_count(e)), lo, hi, seed), e, t);
}

const extents cnn_input{1, 3, 16, 16};

/// x [1,3,16,16] -> Conv 3x3 -> Relu (r1) -> MaxPool 2x2 -> Conv 3x3 ->
/// BatchNormalization -> Relu -> Resize x2 (nearest) -> Concat with r1 ->
/// Conv 1x1 -> y [1,4,16,16], every tensor of type `t`.
std::filesystem::path build_cnn(const std::string& file, dtype t) {
  graph::model_builder b{19};
  auto x = b.input("x", t, cnn_input);
  auto w1 = b.initializer("w1", random_tensor({8, 3, 3, 3}, t, -0.5, 0.5, 1));
  auto b1 = b.initializer("b1", random_tensor({8}, t, -0.5, 0.5, 2));
  auto r1 = b.node("Relu", {b.node("Conv", {x, w1, b1}, {{"pads", ints{1, 1, 1, 1}}})});
  auto p = b.node("MaxPool", {r1}, {{"kernel_shape", ints{2, 2}}, {"strides", ints{2, 2}}});
  auto w2 = b.initializer("w2", random_tensor({8, 8, 3, 3}, t, -0.5, 0.5, 3));
  auto c2 = b.node("Conv", {p, w2}, {{"pads", ints{1, 1, 1, 1}}});
  auto scale = b.initializer("scale", random_tensor({8}, t, 0.5, 2, 4));
  auto beta = b.initializer("beta", random_tensor({8}, t, -1, 1, 5));
  auto mean = b.initializer("mean", random_tensor({8}, t, -1, 1, 6));
  auto var = b.initializer("var", random_tensor({8}, t, 0.2, 2, 7));
  auto r2 = b.node("Relu", {b.node("BatchNormalization", {c2, scale, beta, mean, var})});
  auto scales = b.initializer("scales", tensor::from(std::vector<float>{1, 1, 2, 2}, {4}));
  auto u = b.node("Resize", {r2, "", scales}, {{"mode", std::string("nearest")}});
  auto cat = b.node("Concat", {r1, u}, {{"axis", std::int64_t{1}}});
  auto w3 = b.initializer("w3", random_tensor({4, 16, 1, 1}, t, -0.5, 0.5, 8));
  auto b3 = b.initializer("b3", random_tensor({4}, t, -0.5, 0.5, 9));
  b.output(b.node("Conv", {cat, w3, b3}));
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

/// The graph of `path` after inference and the pass alone.
test::inferred_model rewritten(const std::filesystem::path& path) {
  auto r = test::infer_model(path);
  REQUIRE(graph::passes::compute_float16_in_float32(r.g(), r.st, r.ops, r.evaluate).ok());
  return r;
}

dtype type_of(test::inferred_model& r, int id) { return r.st.types[id].type; }

/// The `to` of a Cast node.
dtype cast_to(const graph::node& n) {
  const auto* a = match<ops::Cast>(n);
  REQUIRE(a);
  return static_cast<dtype>(a->to);
}

std::vector<std::string> run_ops(const session_core& s) {
  std::vector<std::string> v;
  for (const auto& n : s.nodes()) v.push_back(n.op);
  return v;
}

}  // namespace

TEST_CASE("compute_float16_in_float32: a float16 CNN runs in float32 between two Casts") {
  auto r = rewritten(build_cnn("f16_cnn_graph.onnx", dtype::float16));
  auto& g = r.g();
  CHECK(r.ops_of() == list{"Cast", "Conv", "Relu", "MaxPool", "Conv", "BatchNormalization", "Relu", "Resize", "Concat",
                           "Conv", "Cast"});
  // Entry: the graph input keeps its type; a Cast makes its float32 version.
  const int x = g.inputs[0];
  CHECK(type_of(r, x) == dtype::float16);
  CHECK(g.nodes.front().inputs == std::vector<int>{x});
  CHECK(cast_to(g.nodes.front()) == dtype::float32);
  CHECK(type_of(r, g.nodes.front().outputs[0]) == dtype::float32);
  // Exit: the graph output keeps its name and type, made by a Cast back.
  const int y = g.outputs[0];
  CHECK(type_of(r, y) == dtype::float16);
  CHECK(g.nodes.back().outputs == std::vector<int>{y});
  CHECK(cast_to(g.nodes.back()) == dtype::float16);
  // Between: every node computes in float32, on float32 constants.
  for (std::size_t k = 1; k + 1 < g.nodes.size(); ++k) {
    const auto& n = g.nodes[k];
    INFO(n.label());
    for (int id : n.outputs) CHECK(type_of(r, id) == dtype::float32);
    for (int id : n.inputs) {
      if (id < 0) continue;
      CHECK(type_of(r, id) == dtype::float32);
      if (const auto* c = graph::passes::constant_of(g, id)) CHECK(c->type() == dtype::float32);
    }
  }
  // Constants read only by moved nodes are converted in place (same name).
  const int w1 = g.find("w1");
  REQUIRE(w1 >= 0);
  CHECK(g.values[w1].constant->type() == dtype::float32);
  CHECK(g.nodes[1].inputs[1] == w1);
  CHECK(g.values[w1].constant->data<float>()[0] == to_float(to_float16(halves(1, -0.5, 0.5, 1)[0])));
}

TEST_CASE("compute_float16_in_float32: outputs equal the float32 model's, rounded, and stay close to float16's") {
  auto path16 = build_cnn("f16_cnn.onnx", dtype::float16);
  auto path32 = build_cnn("f16_cnn_as_f32.onnx", dtype::float32);
  const auto xs = halves(static_cast<std::size_t>(element_count(cnn_input)), -1, 1, 10);
  session moved(path16, {.threads = 1});
  session kept(path16, {.threads = 1, .compute_float16_in_float32 = false});
  session f32(path32, {.threads = 1});
  // After fuse_conv, the float32 graph of both.
  CHECK(run_ops(moved) ==
        list{"Cast", "onyx.fused.Conv", "MaxPool", "onyx.fused.Conv", "Resize", "Concat", "Conv", "Cast"});
  // Without the pass, float16 Conv fuses its Relu but folds no BatchNormalization
  // (which takes its own Relu instead).
  CHECK(run_ops(kept) ==
        list{"onyx.fused.Conv", "MaxPool", "Conv", "onyx.fused.BatchNormalization", "Resize", "Concat", "Conv"});
  auto got = moved.run({{"x", typed(xs, cnn_input, dtype::float16)}})[0].as_tensor();
  auto op_by_op = kept.run({{"x", typed(xs, cnn_input, dtype::float16)}})[0].as_tensor();
  auto exact = f32.run({{"x", typed(xs, cnn_input, dtype::float32)}})[0].as_tensor();
  REQUIRE(got.type() == dtype::float16);
  REQUIRE(got.shape() == extents{1, 4, 16, 16});

  const tensor got32 = typed(as_floats(got), got.shape(), dtype::float32);
  const auto rounded = as_floats(typed(as_floats(exact), got.shape(), dtype::float16));
  test::require_close(got32, rounded, 1.0 / 1024, 0);
  test::require_close(got32, as_floats(op_by_op), 1e-2, 1e-2);
}

TEST_CASE("compute_float16_in_float32: a node whose op has no float32 kernel stays float16") {
  auto path = build_cnn("f16_cnn_no_f32_conv.onnx", dtype::float16);
  auto r = test::infer_model(path);
  // Conv as a build would see it with its float16 kernel only.
  const op_info* conv = graph::passes::find_op<ops::Conv>(r.ops);
  REQUIRE(conv);
  std::vector<kernel_entry> f16_only;
  for (const auto& e : conv->kernels[0].entries)
    if (e.sig.t[0] == dtype::float16) f16_only.push_back(e);
  REQUIRE(f16_only.size() == 1);
  const backend_kernels kernels[1]{{conv->kernels[0].backend, f16_only}};
  op_info trimmed = *conv;
  trimmed.kernels = kernels;
  for (auto& n : r.g().nodes)
    if (match<ops::Conv>(n)) n.op = &trimmed;
  REQUIRE(graph::passes::compute_float16_in_float32(r.g(), r.st, r.ops, r.evaluate).ok());
  // Each float16 Conv is an island: a Cast back before it, one to float32 after.
  CHECK(r.ops_of() == list{"Conv", "Cast", "Relu", "MaxPool", "Cast", "Conv", "Cast", "BatchNormalization", "Relu",
                           "Resize", "Concat", "Cast", "Conv"});
  for (const auto& n : r.g().nodes) {
    if (!match<ops::Conv>(n)) continue;
    INFO(n.label());
    CHECK(type_of(r, n.outputs[0]) == dtype::float16);
    CHECK(graph::passes::constant_of(r.g(), n.inputs[1])->type() == dtype::float16);
  }
}

namespace {
using no_cast = prebuilt_registry<op_list<ops::Conv, ops::Relu>, backend_list<cpu>>;
}

TEST_CASE("compute_float16_in_float32: a build without Cast keeps float16") {
  graph::model_builder b{19};
  auto x = b.input("x", dtype::float16, {1, 2, 5, 5});
  auto w = b.initializer("w", random_tensor({3, 2, 3, 3}, dtype::float16, -1, 1, 1));
  b.output(b.node("Relu", {b.node("Conv", {x, w})}));
  auto path = test::temp_path("f16_no_cast.onnx");
  REQUIRE(b.save(path).ok());
  basic_session<no_cast> s(path, {.threads = 1});
  CHECK(run_ops(s) == list{"Conv", "Relu"});
  auto xs = random_tensor({1, 2, 5, 5}, dtype::float16, -1, 1, 2);
  auto got = s.run({{"x", xs}})[0].as_tensor();
  auto want = session(path, {.threads = 1}).run({{"x", xs}})[0].as_tensor();
  test::require_close(typed(as_floats(got), got.shape(), dtype::float32), as_floats(want), 1.0 / 1024, 0);
}

TEST_CASE("compute_float16_in_float32: Casts go per value, so regions meet without Cast pairs") {
  // Relu -> Floor (not moved: a discontinuous op sees the model's float16
  // values) -> Relu; the first Relu's output is also a graph output and read
  // by the second Relu's Add.
  graph::model_builder b{19};
  auto x = b.input("x", dtype::float16, {2, 7});
  auto a = b.node("Relu", {x});
  auto f = b.node("Floor", {a});
  auto y = b.node("Add", {b.node("Relu", {f}), a});
  b.output(y);
  b.output(a);
  auto path = test::temp_path("f16_regions.onnx");
  REQUIRE(b.save(path).ok());
  auto r = rewritten(path);
  auto& g = r.g();
  CHECK(r.ops_of() == list{"Cast", "Relu", "Cast", "Floor", "Cast", "Relu", "Add", "Cast"});
  // One Cast back for `a`, read by Floor and the graph output; `a` keeps its name.
  const int ia = g.outputs[1];
  CHECK(g.values[ia].name == a);
  CHECK(type_of(r, ia) == dtype::float16);
  CHECK(g.nodes[2].outputs[0] == ia);
  CHECK(g.nodes[3].inputs[0] == ia);
  // The Add reads the float32 version the first Relu writes, not a round trip.
  CHECK(g.nodes[6].inputs[1] == g.nodes[1].outputs[0]);
  CHECK(type_of(r, g.nodes[1].outputs[0]) == dtype::float32);
  // Floor's output enters through its own Cast.
  CHECK(g.nodes[4].inputs[0] == g.nodes[3].outputs[0]);
  CHECK(cast_to(g.nodes[4]) == dtype::float32);

  auto xs = random_tensor({2, 7}, dtype::float16, -3, 3, 4);
  auto got = session(path, {.threads = 1}).run({{"x", xs}});
  auto want = session(path, {.threads = 1, .compute_float16_in_float32 = false}).run({{"x", xs}});
  for (std::size_t i = 0; i < 2; ++i) {
    auto e = want[i].as_tensor().values<float16_t>(), o = got[i].as_tensor().values<float16_t>();
    for (std::size_t j = 0; j < e.size(); ++j) CHECK(o[j].bits == e[j].bits);  // exact: one op per region step
  }
}

TEST_CASE("compute_float16_in_float32: the model's own Casts stay, round trips included") {
  // f32 -> Cast(float16) -> Relu -> Cast(float32): the model rounds x to
  // float16, which the pass keeps; its own Casts meet the pass's, unmerged.
  graph::model_builder b{19};
  auto x = b.input("x", dtype::float32, {3, 4});
  auto h = b.node("Cast", {x}, {{"to", std::int64_t{10}}});
  b.output(b.node("Cast", {b.node("Relu", {h})}, {{"to", std::int64_t{1}}}));
  auto path = test::temp_path("f16_model_casts.onnx");
  REQUIRE(b.save(path).ok());
  auto r = rewritten(path);
  CHECK(r.ops_of() == list{"Cast", "Cast", "Relu", "Cast", "Cast"});
  const auto& n = r.g().nodes;
  CHECK(cast_to(n[0]) == dtype::float16);
  CHECK(cast_to(n[1]) == dtype::float32);
  CHECK(cast_to(n[3]) == dtype::float16);
  CHECK(cast_to(n[4]) == dtype::float32);
  tensor xs = tensor::from(test::random_values<float>(12, -2, 2, 5), {3, 4});
  auto got = session(path, {.threads = 1}).run({{"x", xs}})[0].as_tensor();
  auto want = session(path, {.threads = 1, .optimize = false}).run({{"x", xs}})[0].as_tensor();
  auto e = want.values<float>();
  test::require_close(got, std::vector<float>(e.begin(), e.end()), 0, 0);  // the rounding is kept, bit for bit
}

TEST_CASE("compute_float16_in_float32: bfloat16 too") {
  graph::model_builder b{19};
  auto x = b.input("x", dtype::bfloat16, {4, 6});
  auto w = b.initializer("w", random_tensor({6}, dtype::bfloat16, -1, 1, 1));
  auto c = b.initializer("c", random_tensor({6}, dtype::bfloat16, -1, 1, 2));
  b.output(b.node("Sigmoid", {b.node("Add", {b.node("Mul", {x, w}), c})}));
  auto path = test::temp_path("bf16_affine.onnx");
  REQUIRE(b.save(path).ok());
  auto r = rewritten(path);
  CHECK(r.ops_of() == list{"Cast", "Mul", "Add", "Sigmoid", "Cast"});
  CHECK(cast_to(r.g().nodes.back()) == dtype::bfloat16);
  CHECK(type_of(r, r.g().outputs[0]) == dtype::bfloat16);
  CHECK(graph::passes::constant_of(r.g(), r.g().nodes[1].inputs[1])->type() == dtype::float32);

  auto xs = random_tensor({4, 6}, dtype::bfloat16, -1, 1, 3);
  auto got = session(path, {.threads = 1}).run({{"x", xs}})[0].as_tensor();
  auto want = session(path, {.threads = 1, .compute_float16_in_float32 = false}).run({{"x", xs}})[0].as_tensor();
  REQUIRE(got.type() == dtype::bfloat16);
  // bfloat16 keeps 8 bits: a rounded intermediate moves the result by ~2^-8.
  test::require_close(typed(as_floats(got), got.shape(), dtype::float32), as_floats(want), 1e-2, 1e-2);
}

TEST_CASE("compute_float16_in_float32: a value a subgraph captures keeps its name and type") {
  // a = Relu(x) is captured by both branches of an If; each branch body is
  // optimized on its own and moves its Add/Neg, entering through a Cast of
  // the captured float16 `a`.
  graph::model_builder b{19};
  auto cond = b.input("cond", dtype::boolean, {});
  auto x = b.input("x", dtype::float16, {2, 3});
  auto a = b.node("Relu", {x});
  graph::graph_builder then_body = b.subgraph("then");
  then_body.output(then_body.node("Add", {a, a}), dtype::float16, {2, 3});
  graph::graph_builder else_body = b.subgraph("else");
  else_body.output(else_body.node("Neg", {a}), dtype::float16, {2, 3});
  b.output(b.node("If", {cond}, {{"then_branch", then_body}, {"else_branch", else_body}}));
  auto path = test::temp_path("f16_captured.onnx");
  REQUIRE(b.save(path).ok());

  auto r = rewritten(path);
  CHECK(r.ops_of() == list{"Cast", "Relu", "Cast", "If"});
  const int ia = r.g().find(a);
  REQUIRE(ia >= 0);
  CHECK(type_of(r, ia) == dtype::float16);
  CHECK(r.g().nodes[2].outputs[0] == ia);

  auto xs = random_tensor({2, 3}, dtype::float16, -2, 2, 6);
  for (bool c : {true, false}) {
    std::vector<named_value> in{{"cond", tensor::scalar(c)}, {"x", xs}};
    auto got = session(path, {.threads = 1}).run(in)[0].as_tensor();
    auto want = session(path, {.threads = 1, .compute_float16_in_float32 = false}).run(in)[0].as_tensor();
    REQUIRE(got.type() == dtype::float16);
    auto e = want.values<float16_t>(), o = got.values<float16_t>();
    for (std::size_t j = 0; j < e.size(); ++j) CHECK(o[j].bits == e[j].bits);  // one op per region: exact
  }
}
