// graph::passes::fold_constants: nodes whose inputs are all constant become
// constants, except nodes whose op declares its outputs random
// (`deterministic = false`, surfaced as op_info::deterministic).
#include <catch2/catch.hpp>

#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/registry/registry.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

/// Stands for a random generator (RandomUniformLike, Bernoulli, ...): an op
/// whose outputs differ from run to run.
struct random_like {
  static constexpr std::string_view domain = "onyx.test", name = "RandomLike";
  static constexpr int since = 1, until = ops::latest;
  static constexpr ops::arity inputs{1, 1}, outputs{1, 1};
  static constexpr bool deterministic = false;
  struct attributes {};
  static status infer(const attributes&, ops::infer_context& c) {
    c.set_output(0, c.input(0));
    return ok();
  }
};

using reg = registry<op_list<random_like, ops::Relu>, backend_list<cpu>>;
static_assert(!reg::ops[0].deterministic, "an op struct's deterministic = false reaches its op_info");
static_assert(reg::ops[1].deterministic, "ops are deterministic unless they say otherwise");

/// c (constant [3]) -> op -> y (graph output).
graph::graph one_node(const op_info* op) {
  graph::graph g;
  int c = g.add_value("c");
  g.values[c].constant = tensor::from<float>({1, -2, 3}, {3});
  int y = g.add_value("y");
  graph::node n;
  n.name = "n0";
  n.op_type = std::string(op->name);
  n.op = op;
  n.inputs = {c};
  n.outputs = {y};
  g.nodes.push_back(std::move(n));
  g.outputs = {y};
  return g;
}

/// An evaluator that "runs" any node: its output is {7, 7, 7}.
result<std::vector<tensor>> sevens(const graph::node&, std::span<const tensor* const>, const graph::inferred&) {
  return std::vector<tensor>{tensor::from<float>({7, 7, 7}, {3})};
}

}  // namespace

TEST_CASE("fold_constants: a node of constants becomes a constant; a random one stays") {
  SECTION("deterministic op: folded") {
    auto g = one_node(&reg::ops[1]);
    auto st = graph::initial_state(g);
    REQUIRE(graph::passes::fold_constants(g, st, sevens).ok());
    CHECK(g.nodes.empty());
    REQUIRE(g.values[1].constant);
    CHECK(g.values[1].constant->values<float>()[0] == 7.0f);
  }
  SECTION("op with deterministic = false: kept, never evaluated") {
    auto g = one_node(&reg::ops[0]);
    auto st = graph::initial_state(g);
    bool evaluated = false;
    graph::evaluate_fn spy = [&](const graph::node& n, std::span<const tensor* const> in, const graph::inferred& s) {
      evaluated = true;
      return sevens(n, in, s);
    };
    REQUIRE(graph::passes::fold_constants(g, st, spy).ok());
    CHECK(g.nodes.size() == 1);
    CHECK(!g.values[1].constant);
    CHECK(!evaluated);
  }
}

TEST_CASE("fold_constants: a large ConstantOfShape and what reads it fold; the rest stays") {
  // [64, 64] floats is above inference's propagation limit, so folding computes it.
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {64, 64});
  auto shape = b.initializer("shape", tensor::from<std::int64_t>({64, 64}, {2}));
  auto ones = b.node("ConstantOfShape", {shape}, {{"value", tensor::from<float>({1.0f}, {1})}});
  auto twos = b.node("Add", {ones, ones});
  b.output(b.node("Mul", {x, twos}));
  auto path = onyx::test::temp_path("fold_constants_cos.onnx");
  REQUIRE(b.save(path).ok());

  auto r = test::infer_model(path);
  REQUIRE(r.ops_of() == std::vector<std::string>{"ConstantOfShape", "Add", "Mul"});
  REQUIRE(graph::passes::fold_constants(r.g(), r.st, r.evaluate).ok());
  REQUIRE(r.ops_of() == std::vector<std::string>{"Mul"});
  const int folded = r.g().nodes[0].inputs[1];
  REQUIRE(r.g().values[folded].constant);
  CHECK(r.g().values[folded].constant->shape() == extents{64, 64});
  CHECK(r.g().values[folded].constant->values<float>()[4095] == 2.0f);
}
