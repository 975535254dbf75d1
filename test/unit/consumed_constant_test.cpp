// Constants a kernel consumed at prepare (prepare_info::consume_constant,
// onyx/registry/kernel.hpp): runtime::compile frees one once every reader has
// consumed it, and keeps it while anything else still needs it (another
// reader, a graph output). Runs give the same results as the same model with
// the weights fed as inputs (nothing packed, nothing freed).
#include <catch2/catch.hpp>
#include <filesystem>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/runtime/compiled_graph.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

tensor random_tensor(const extents& e, unsigned seed) {
  return tensor::from(test::random_values<float>(static_cast<std::size_t>(element_count(e)), -1, 1, seed), e);
}

/// The model a test builds, twice: weights as initializers, or as inputs.
struct weights {
  graph::model_builder& b;
  bool as_inputs;
  std::vector<named_value>& feeds;
  std::string operator()(const std::string& name, const tensor& t) {
    if (!as_inputs) return b.initializer(name, t);
    feeds.emplace_back(name, t);
    return b.input(name, dtype::float32, t.shape());
  }
};

using build_fn = void (*)(graph::model_builder&, weights&);

struct compiled {
  graph::model m;
  std::shared_ptr<const runtime::compiled_graph> cg;
  /// Whether value `name` was freed after prepare (and holds no constant).
  bool released(const std::string& name) const {
    const int id = cg->g->find(name);
    REQUIRE(id >= 0);
    const bool freed = cg->released[static_cast<std::size_t>(id)] != 0;
    CHECK(freed == !cg->g->values[static_cast<std::size_t>(id)].constant.has_value());
    return freed;
  }
};

std::filesystem::path save(build_fn build, bool as_inputs, std::vector<named_value>& feeds, const std::string& file) {
  graph::model_builder b{17};
  weights w{b, as_inputs, feeds};
  build(b, w);
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

compiled compile(const std::filesystem::path& path) {
  const op_table ops = session::all_ops();
  auto m = graph::load_model(path, ops);
  REQUIRE(m.ok());
  compiled c{std::move(m).value(), nullptr};
  REQUIRE(graph::resolve_ops(c.m, ops).ok());
  REQUIRE(graph::normalize(*c.m.main, ops).ok());
  auto cg = runtime::compile(c.m.main, runtime::compile_options{true, nullptr, ops, {}});
  REQUIRE(cg.ok());
  c.cg = std::move(cg).value();
  return c;
}

/// Runs the model with its weights as constants and as inputs; same outputs.
void check_outputs(build_fn build, const std::string& name) {
  std::vector<named_value> feeds{{"x", random_tensor({5, 7}, 11)}}, none;
  session constant(save(build, false, none, name + "_const.onnx"), {.threads = 1});
  const auto with_constants = constant.run({feeds[0]});
  session fed(save(build, true, feeds, name + "_fed.onnx"), {.threads = 1});
  const auto with_inputs = fed.run(feeds);
  REQUIRE(with_constants.size() == with_inputs.size());
  for (std::size_t i = 0; i < with_inputs.size(); ++i) {
    const tensor& want = with_inputs[i].as_tensor();
    auto v = want.values<float>();
    test::require_close(with_constants[i].as_tensor(), std::vector<float>(v.begin(), v.end()), 1e-5, 1e-6);
  }
  // A second run reuses the bound context: the freed slots stay data-less.
  const auto again = constant.run({feeds[0]});
  for (std::size_t i = 0; i < again.size(); ++i) {
    auto v = with_constants[i].as_tensor().values<float>();
    test::require_close(again[i].as_tensor(), std::vector<float>(v.begin(), v.end()), 0, 0);
  }
}

// x [5, 7]: MatMul by w [7, 6], Gemm by wt [6, 7] (transB), and a Conv over
// x seen as [1, 1, 5, 7] with k [3, 1, 3, 3]: every weight packed.
void packed_readers(graph::model_builder& b, weights& w) {
  auto x = b.input("x", dtype::float32, {5, 7});
  b.output(b.node("MatMul", {x, w("w", random_tensor({7, 6}, 1))}));
  b.output(b.node("Gemm", {x, w("wt", random_tensor({6, 7}, 2))}, {{"transB", 1}}));
  auto x4 = b.node("Reshape", {x, b.initializer("shape", tensor::from<std::int64_t>({1, 1, 5, 7}, {4}))});
  b.output(b.node("Conv", {x4, w("k", random_tensor({3, 1, 3, 3}, 3)), w("kb", random_tensor({3}, 4))},
                  {{"kernel_shape", std::vector<std::int64_t>{3, 3}}}));
}

// w read by two MatMuls: freed after the second prepare.
void two_packed_readers(graph::model_builder& b, weights& w) {
  auto x = b.input("x", dtype::float32, {5, 7});
  auto wv = w("w", random_tensor({7, 6}, 1));
  auto y = b.node("MatMul", {x, wv});
  b.output(b.node("MatMul", {b.node("Relu", {x}), wv}));
  b.output(y);
}

// w read by a MatMul (packed) and as a Gemm's A (read every run): kept.
void packed_and_plain_readers(graph::model_builder& b, weights& w) {
  auto x = b.input("x", dtype::float32, {5, 7});
  auto wv = w("w", random_tensor({7, 6}, 1));
  b.output(b.node("MatMul", {x, wv}));
  b.output(b.node("Gemm", {wv, x}, {{"transA", 1}, {"transB", 1}}));  // [6, 5]
}

// w packed by its MatMul, and also a graph output: kept.
void packed_and_output(graph::model_builder& b, weights& w) {
  auto x = b.input("x", dtype::float32, {5, 7});
  auto wv = w("w", random_tensor({7, 6}, 1));
  b.output(b.node("MatMul", {x, wv}));
  b.output(wv);
}

}  // namespace

TEST_CASE("A constant every reader consumed is freed after prepare", "[consumed_constant]") {
  std::vector<named_value> unused;
  {
    const auto c = compile(save(packed_readers, false, unused, "consumed_packed.onnx"));
    CHECK(c.released("w"));
    CHECK(c.released("k"));
    CHECK(!c.released("kb"));  // Conv's bias is read at run time
    // Gemm may have become a fused form; its weight is consumed all the same.
    CHECK(c.released("wt"));
  }
  {
    const auto c = compile(save(two_packed_readers, false, unused, "consumed_twice.onnx"));
    CHECK(c.released("w"));
  }
  check_outputs(packed_readers, "consumed_packed");
  check_outputs(two_packed_readers, "consumed_twice");
}

TEST_CASE("A consumed constant stays while something else reads it", "[consumed_constant]") {
  std::vector<named_value> unused;
  CHECK(!compile(save(packed_and_plain_readers, false, unused, "kept_add.onnx")).released("w"));
  CHECK(!compile(save(packed_and_output, false, unused, "kept_output.onnx")).released("w"));
  check_outputs(packed_and_plain_readers, "kept_add");
  check_outputs(packed_and_output, "kept_output");
}
