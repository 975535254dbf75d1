// Inference must not fail on a branch that will not run: the exported
// PyTorch pattern `if x.shape[2] == 1: x = x.squeeze(2)` (an If whose
// condition comes from Shape -> Gather -> Equal, a Squeeze on one side, an
// Identity on the other), alone and nested, with the Squeeze on either side;
// If conditions known only at run time; Loop and Scan bodies that make no
// iteration. Covers ops::If / Loop / Scan inference and the deferred bodies
// of runtime::compile (a body inference did not reach fails only if it runs).
#include <catch2/catch.hpp>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using graph::graph_builder;
using graph::model_builder;

namespace {

using ints = std::vector<std::int64_t>;

tensor i64(ints v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return tensor::from(v, {n});
}

/// `cond ? then : else` as the exporter writes it, inside graph `g` of model
/// `m`: the then-branch squeezes axis 2 of `x` when `squeeze_on_then`, else
/// the else-branch does; the other branch is Identity. The condition is
/// "x.shape[2] == 1" (or its negation when the Squeeze is on the else side),
/// so the Squeeze only ever runs on a dim of size 1.
std::string squeeze_if(model_builder& m, graph_builder& g, const std::string& x, bool squeeze_on_then,
                       const std::string& name) {
  auto shape = g.node("Shape", {x});
  auto two = g.constant(tensor::scalar(std::int64_t{2}));
  auto d = g.node("Gather", {shape, two}, {{"axis", 0}});
  auto is_one = g.node("Equal", {d, g.constant(tensor::scalar(std::int64_t{1}))});
  auto cond = squeeze_on_then ? is_one : g.node("Not", {is_one});
  graph_builder squeeze = m.subgraph(name + "_squeeze");
  squeeze.output(squeeze.node("Squeeze", {x, squeeze.constant(i64({2}))}));
  graph_builder keep = m.subgraph(name + "_keep");
  keep.output(keep.node("Identity", {x}));
  const graph_builder& then_b = squeeze_on_then ? squeeze : keep;
  const graph_builder& else_b = squeeze_on_then ? keep : squeeze;
  return g.node("If", {cond}, {{"then_branch", then_b}, {"else_branch", else_b}});
}

tensor ramp(const extents& e) {
  std::vector<float> v(static_cast<std::size_t>(element_count(e)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 3.0f;
  return tensor::from(v, e);
}

std::vector<float> values_of(const tensor& t) {
  auto v = t.values<float>();
  return {v.begin(), v.end()};
}

session open(const model_builder& m, const std::string& file) {
  auto path = test::temp_path(file);
  REQUIRE(m.save(path).ok());
  return session(path, {.threads = 1});
}

}  // namespace

TEST_CASE("If: a Squeeze on the branch not taken does not fail inference", "[control][if]") {
  for (bool squeeze_on_then : {true, false}) {
    for (bool symbolic : {true, false}) {
      DYNAMIC_SECTION("squeeze in " << (squeeze_on_then ? "then" : "else") << ", x "
                                    << (symbolic ? "[1,128,T]" : "[1,128,2]")) {
        model_builder m{17};
        auto x = symbolic ? m.input("x", dtype::float32, {1, 128, "T"}) : m.input("x", dtype::float32, {1, 128, 2});
        m.output(squeeze_if(m, m, x, squeeze_on_then, "if"));
        session s = open(m, "untaken_if.onnx");
        // Size 2: the Squeeze's branch does not run; the output is x.
        tensor x2 = ramp({1, 128, 2});
        auto out = s.run({{"x", x2}});
        REQUIRE(out.at(0).as_tensor().shape() == extents{1, 128, 2});
        CHECK(values_of(out.at(0).as_tensor()) == values_of(x2));
        if (symbolic) {  // size 1 on the same session: the Squeeze runs
          tensor x1 = ramp({1, 128, 1});
          auto squeezed = s.run({{"x", x1}});
          REQUIRE(squeezed.at(0).as_tensor().shape() == extents{1, 128});
          CHECK(values_of(squeezed.at(0).as_tensor()) == values_of(x1));
        }
      }
    }
  }
}

TEST_CASE("If: the pattern nested three deep, as in an exported voice-activity model", "[control][if]") {
  // outer If (condition a graph input, unknown until run) -> its else branch
  // holds the shape If -> whose Squeeze branch would fail for size 2.
  for (bool squeeze_on_then : {true, false}) {
    for (bool symbolic : {true, false}) {
      DYNAMIC_SECTION("inner squeeze in " << (squeeze_on_then ? "then" : "else") << ", x "
                                          << (symbolic ? "[1,128,T]" : "[1,128,2]")) {
        model_builder m{17};
        auto x = symbolic ? m.input("x", dtype::float32, {1, 128, "T"}) : m.input("x", dtype::float32, {1, 128, 2});
        auto flag = m.input("flag", dtype::boolean, {});
        graph_builder outer_then = m.subgraph("If_0_then_branch");
        outer_then.output(outer_then.node("Neg", {x}));
        graph_builder outer_else = m.subgraph("If_0_else_branch");
        // One more level: the else branch runs an If on a constant true whose
        // branch holds the shape If.
        graph_builder middle = m.subgraph("decoder_branch");
        middle.output(squeeze_if(m, middle, x, squeeze_on_then, "decoder_If"));
        graph_builder unused = m.subgraph("decoder_unused");
        unused.output(unused.node("Identity", {x}));
        auto yes = outer_else.constant(tensor::scalar(true));
        outer_else.output(outer_else.node("If", {yes}, {{"then_branch", middle}, {"else_branch", unused}}));
        m.output(m.node("If", {flag}, {{"then_branch", outer_then}, {"else_branch", outer_else}}));
        session s = open(m, "untaken_nested.onnx");

        tensor x2 = ramp({1, 128, 2});
        auto kept = s.run({{"x", x2}, {"flag", tensor::scalar(false)}});
        REQUIRE(kept.at(0).as_tensor().shape() == extents{1, 128, 2});
        CHECK(values_of(kept.at(0).as_tensor()) == values_of(x2));
        auto negated = s.run({{"x", x2}, {"flag", tensor::scalar(true)}});
        REQUIRE(negated.at(0).as_tensor().shape() == extents{1, 128, 2});
        CHECK(negated.at(0).as_tensor().values<float>()[3] == -values_of(x2)[3]);
        if (symbolic) {
          tensor x1 = ramp({1, 128, 1});
          auto squeezed = s.run({{"x", x1}, {"flag", tensor::scalar(false)}});
          REQUIRE(squeezed.at(0).as_tensor().shape() == extents{1, 128});
          CHECK(values_of(squeezed.at(0).as_tensor()) == values_of(x1));
        }
      }
    }
  }
}

TEST_CASE("If: a condition known only at run time; only a branch that runs raises its error", "[control][if]") {
  for (bool squeeze_on_then : {true, false}) {
    DYNAMIC_SECTION("squeeze in " << (squeeze_on_then ? "then" : "else")) {
      model_builder m{17};
      auto x = m.input("x", dtype::float32, {1, 128, 2});
      auto c = m.input("c", dtype::boolean, {});
      graph_builder squeeze = m.subgraph("squeeze_branch");
      squeeze.output(squeeze.node("Squeeze", {x, squeeze.constant(i64({2}))}));
      graph_builder keep = m.subgraph("keep_branch");
      keep.output(keep.node("Relu", {x}));
      m.output(m.node("If", {c}, {{"then_branch", squeeze_on_then ? squeeze : keep},
                                  {"else_branch", squeeze_on_then ? keep : squeeze}}));
      session s = open(m, "untaken_runtime_cond.onnx");
      tensor x2 = ramp({1, 128, 2});
      auto out = s.run({{"x", x2}, {"c", tensor::scalar(!squeeze_on_then)}});
      REQUIRE(out.at(0).as_tensor().shape() == extents{1, 128, 2});
      CHECK(out.at(0).as_tensor().values<float>()[0] == 0.0f);  // Relu(-3)
      CHECK(out.at(0).as_tensor().values<float>()[100] == 47.0f);
      // The Squeeze's branch taken: its error, naming the node.
      CHECK_THROWS_WITH(s.run({{"x", x2}, {"c", tensor::scalar(squeeze_on_then)}}),
                        Catch::Contains("squeeze_branch") && Catch::Contains("Squeeze") &&
                            Catch::Contains("cannot squeeze axis 2 of shape [1,128,2]"));
    }
  }
}

TEST_CASE("If: two branches that both fail inference fail the session", "[control][if]") {
  model_builder m{17};
  auto x = m.input("x", dtype::float32, {1, 128, 2});
  auto c = m.input("c", dtype::boolean, {});
  graph_builder a = m.subgraph("a");
  a.output(a.node("Squeeze", {x, a.constant(i64({2}))}));
  graph_builder b = m.subgraph("b");
  b.output(b.node("Squeeze", {x, b.constant(i64({1}))}));
  m.output(m.node("If", {c}, {{"then_branch", a}, {"else_branch", b}}));
  auto path = test::temp_path("untaken_both_fail.onnx");
  REQUIRE(m.save(path).ok());
  auto s = session::open(path);
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("cannot squeeze axis 2") != std::string::npos);
}

TEST_CASE("Loop: a body that would fail inference and makes no iteration", "[control][loop]") {
  // Carried v [1,128,2]; the body squeezes its axis 2, which fails for any
  // iteration. With M = 0 the Loop returns v as it came in.
  model_builder m{17};
  auto v = m.input("v", dtype::float32, {1, 128, 2});
  auto trips = m.input("M", dtype::int64, {});
  graph_builder body = m.subgraph("loop_body");
  body.input("i", dtype::int64, {});
  auto cond_in = body.input("cond_in", dtype::boolean, {});
  auto v_in = body.input("v_in", dtype::float32);
  body.output(body.node("Identity", {cond_in}));
  body.output(body.node("Squeeze", {v_in, body.constant(i64({2}))}));
  m.output(m.node("Loop", {trips, "", v}, {{"body", body}}, {"v_out"})[0]);
  session s = open(m, "untaken_loop.onnx");
  tensor v2 = ramp({1, 128, 2});
  auto out = s.run({{"v", v2}, {"M", tensor::scalar(std::int64_t{0})}});
  REQUIRE(out.at(0).as_tensor().shape() == extents{1, 128, 2});
  CHECK(values_of(out.at(0).as_tensor()) == values_of(v2));
  CHECK_THROWS_WITH(s.run({{"v", v2}, {"M", tensor::scalar(std::int64_t{1})}}),
                    Catch::Contains("loop_body") && Catch::Contains("cannot squeeze axis 2"));
}

TEST_CASE("Loop: a constant zero trip count compiles a body that cannot run", "[control][loop]") {
  model_builder m{17};
  auto v = m.input("v", dtype::float32, {1, 128, 2});
  graph_builder body = m.subgraph("loop_body");
  body.input("i", dtype::int64, {});
  auto cond_in = body.input("cond_in", dtype::boolean, {});
  auto v_in = body.input("v_in", dtype::float32, {1, 128, 2});
  body.output(body.node("Identity", {cond_in}));
  body.output(body.node("Squeeze", {v_in, body.constant(i64({2}))}));
  auto zero = m.constant(tensor::scalar(std::int64_t{0}));
  m.output(m.node("Loop", {zero, "", v}, {{"body", body}}, {"v_out"})[0]);
  session s = open(m, "untaken_loop_const.onnx");
  tensor v2 = ramp({1, 128, 2});
  auto out = s.run({{"v", v2}});
  REQUIRE(out.at(0).as_tensor().shape() == extents{1, 128, 2});
  CHECK(values_of(out.at(0).as_tensor()) == values_of(v2));
}

TEST_CASE("Scan: a body that would fail inference over an empty scan axis", "[control][scan]") {
  // Scan input xs [L, 3]; the body squeezes axis 0 of its slice [3], which
  // fails for any iteration. With L = 0 the Scan returns its initial state.
  model_builder m{17};
  auto state = m.input("state", dtype::float32, {3});
  auto xs = m.input("xs", dtype::float32, {"L", 3});
  graph_builder body = m.subgraph("scan_body");
  auto s_in = body.input("s_in", dtype::float32, {3});
  auto x_in = body.input("x_in", dtype::float32, {3});
  body.output(body.node("Add", {s_in, x_in}), dtype::float32, {3});
  body.output(body.node("Squeeze", {x_in, body.constant(i64({0}))}), dtype::float32);
  auto outs = m.node("Scan", {state, xs}, {{"body", body}, {"num_scan_inputs", 1}}, 2);
  m.output(outs[0]);
  m.output(outs[1]);
  session s = open(m, "untaken_scan.onnx");
  tensor s0 = tensor::from(std::vector<float>{1, 2, 3}, {3});
  auto out = s.run({{"state", s0}, {"xs", tensor::from(std::vector<float>{}, {0, 3})}});
  REQUIRE(out.at(0).as_tensor().shape() == extents{3});
  CHECK(values_of(out.at(0).as_tensor()) == std::vector<float>{1, 2, 3});
  REQUIRE(out.at(1).as_tensor().type() == dtype::float32);
  CHECK(out.at(1).as_tensor().size() == 0);
  CHECK_THROWS_WITH(s.run({{"state", s0}, {"xs", tensor::from(std::vector<float>{4, 5, 6}, {1, 3})}}),
                    Catch::Contains("scan_body") && Catch::Contains("cannot squeeze axis 0"));
}
