// Concat's inputs written in place (planned::inputs_in_output, kernels/cpu/
// concat.hpp; the planner in runtime/executor.hpp): at batch 1 each input of
// a channel Concat is one block of the output, so the plan puts it inside the
// output's buffer and the kernel skips its copy. These tests check the plan
// (where each input lands, how long the shared buffer lives) and that runs
// give the values the ops define, with the copy skipped or not.
#include <catch2/catch.hpp>

#include <cmath>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/runtime/executor.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

// x [n, 16, 4, 4] -> a = Relu(x), b = Neg(x) -> c = Concat(a, b, axis 1)
// -> s = Sigmoid(c) -> t = Neg(s) -> y = Abs(t) (output); then z = Abs(a)
// (output), read last: a must survive in c's buffer after c's last reader.
std::filesystem::path concat_model(std::int64_t n, bool twice, const std::string& file) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {n, 16, 4, 4});
  auto a = b.node("Relu", {x}, {}, std::vector<std::string>{"a"})[0];
  auto bb = twice ? a : b.node("Neg", {x}, {}, std::vector<std::string>{"b"})[0];
  auto c = b.node("Concat", {a, bb}, {{"axis", 1}}, std::vector<std::string>{"c"})[0];
  auto s = b.node("Sigmoid", {c}, {}, std::vector<std::string>{"s"})[0];
  auto t = b.node("Neg", {s}, {}, std::vector<std::string>{"t"})[0];
  b.output(b.node("Abs", {t}, {}, std::vector<std::string>{"y"})[0], dtype::float32);
  b.output(b.node("Abs", {a}, {}, std::vector<std::string>{"z"})[0], dtype::float32);
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

struct planned_model {
  graph::model m;
  std::shared_ptr<const runtime::compiled_graph> cg;
  std::shared_ptr<const runtime::shaped_plan> plan;
  std::size_t offset(const std::string& name) const {
    const int id = cg->g->find(name);
    REQUIRE(id >= 0);
    return plan->offsets[static_cast<std::size_t>(id)];
  }
};

planned_model plan(const std::filesystem::path& path, const extents& shape) {
  const op_table ops = session::all_ops();
  auto m = graph::load_model(path, ops);
  REQUIRE(m.ok());
  planned_model p{std::move(m).value(), nullptr, nullptr};
  REQUIRE(graph::resolve_ops(p.m, ops).ok());
  REQUIRE(graph::normalize(*p.m.main, ops).ok());
  auto cg = runtime::compile(p.m.main, runtime::compile_options{true, nullptr, ops, {}});
  REQUIRE(cg.ok());
  p.cg = std::move(cg).value();
  auto sp = runtime::make_shaped_plan(*p.cg, {value_type{value_kind::tensor, dtype::float32, sym_shape(shape)}},
                                      {shape}, nullptr);
  REQUIRE(sp.ok());
  p.plan = std::move(sp).value();
  return p;
}

/// Runs the model on x = a ramp through zero and checks y and z against the
/// ops' definitions; twice, so the second run reuses the bound arena.
void check_runs(const std::filesystem::path& path, std::int64_t n, bool twice, int threads) {
  const extents shape{n, 16, 4, 4};
  const std::int64_t count = element_count(shape), per = count / n;
  std::vector<float> xs(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>(i % 37 - 18) / 8.0f;
  std::vector<float> want_y, want_z;
  for (std::int64_t r = 0; r < n; ++r) {
    for (int half = 0; half < 2; ++half)
      for (std::int64_t i = 0; i < per; ++i) {
        const float v = xs[static_cast<std::size_t>(r * per + i)];
        const float c = half == 0 || twice ? std::max(v, 0.0f) : -v;
        want_y.push_back(1.0f / (1.0f + std::exp(-c)));
      }
    for (std::int64_t i = 0; i < per; ++i) want_z.push_back(std::max(xs[static_cast<std::size_t>(r * per + i)], 0.0f));
  }
  session s(path, {.threads = threads});
  for (int run = 0; run < 2; ++run) {
    auto outs = s.run({named_value{"x", tensor::from(xs, shape)}});
    REQUIRE(outs.size() == 2);
    test::require_close(outs[0].as_tensor(), want_y, 1e-6, 1e-6);
    test::require_close(outs[1].as_tensor(), want_z, 0, 0);
  }
}

}  // namespace

TEST_CASE("Concat at batch 1: its inputs are planned inside its output", "[concat_in_place]") {
  const auto path = concat_model(1, false, "concat_in_place.onnx");
  auto p = plan(path, {1, 16, 4, 4});
  const std::size_t c = p.offset("c");
  REQUIRE(c != runtime::unplanned);
  CHECK(p.offset("a") == c);
  CHECK(p.offset("b") == c + 16 * 4 * 4 * sizeof(float));
  // c's buffer (a inside it) lives until z = Abs(a), the last step: no tensor
  // planned after c's own last reader may take its bytes.
  const int cid = p.cg->g->find("c");
  for (std::size_t id = 0; id < p.plan->offsets.size(); ++id) {
    const std::size_t o = p.plan->offsets[id];
    if (o == runtime::unplanned || static_cast<int>(id) == cid || p.cg->g->values[id].name == "a" ||
        p.cg->g->values[id].name == "b")
      continue;
    const auto e = *p.plan->st.types[id].shape.concrete_extents();
    const std::size_t end = o + storage_bytes(p.plan->st.types[id].type, element_count(e));
    INFO("value " << p.cg->g->values[id].name);
    CHECK((end <= c || o >= c + 2 * 16 * 4 * 4 * sizeof(float)));
  }
  check_runs(path, 1, false, 1);
  check_runs(path, 1, false, 2);
}

TEST_CASE("Concat with more than one row, or one input twice, copies", "[concat_in_place]") {
  const auto batch2 = concat_model(2, false, "concat_batch2.onnx");
  auto p = plan(batch2, {2, 16, 4, 4});
  CHECK(p.offset("a") != p.offset("c"));
  CHECK(p.offset("b") != p.offset("c") + 16 * 4 * 4 * sizeof(float));
  check_runs(batch2, 2, false, 1);
  check_runs(batch2, 2, false, 2);

  // Concat(a, a): a cannot sit in both blocks; it stays on its own.
  const auto twice = concat_model(1, true, "concat_twice.onnx");
  auto q = plan(twice, {1, 16, 4, 4});
  CHECK(q.offset("a") != q.offset("c"));
  CHECK(q.offset("a") != q.offset("c") + 16 * 4 * 4 * sizeof(float));
  check_runs(twice, 1, true, 1);
}

TEST_CASE("Concat chains (DenseNet's blocks) share one buffer", "[concat_in_place]") {
  // x [1, 16, 4, 4]: c1 = Concat(Relu(x), Neg(x)); c2 = Concat(c1, Abs(c1 read
  // as a block of 16 channels)); y = Sigmoid(c2).
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 16, 4, 4});
  auto a = b.node("Relu", {x}, {}, std::vector<std::string>{"a"})[0];
  auto n = b.node("Neg", {x}, {}, std::vector<std::string>{"b"})[0];
  auto c1 = b.node("Concat", {a, n}, {{"axis", 1}}, std::vector<std::string>{"c1"})[0];
  auto e = b.node("ReduceMax", {c1}, {{"axes", std::vector<std::int64_t>{1}}, {"keepdims", 1}},
                  std::vector<std::string>{"e"})[0];  // [1, 1, 4, 4]: max(Relu(x), -x) = |x| (opset 17: axes attribute)
  auto c2 = b.node("Concat", {c1, e}, {{"axis", 1}}, std::vector<std::string>{"c2"})[0];
  b.output(b.node("Sigmoid", {c2}, {}, std::vector<std::string>{"y"})[0], dtype::float32);
  auto path = test::temp_path("concat_chain.onnx");
  REQUIRE(b.save(path).ok());

  auto p = plan(path, {1, 16, 4, 4});
  const std::size_t c = p.offset("c2"), block = 16 * 4 * 4 * sizeof(float);
  REQUIRE(c != runtime::unplanned);
  CHECK(p.offset("c1") == c);
  CHECK(p.offset("a") == c);
  CHECK(p.offset("b") == c + block);
  CHECK(p.offset("e") == c + 2 * block);

  std::vector<float> xs(256);
  for (int i = 0; i < 256; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>(i % 29 - 14) / 4.0f;
  std::vector<float> want;
  auto sig = [](float v) { return 1.0f / (1.0f + std::exp(-v)); };
  for (float v : xs) want.push_back(sig(std::max(v, 0.0f)));
  for (float v : xs) want.push_back(sig(-v));
  for (int i = 0; i < 16; ++i) {
    float m = 0;
    for (int ch = 0; ch < 16; ++ch) m = std::max(m, std::abs(xs[static_cast<std::size_t>(ch * 16 + i)]));
    want.push_back(sig(m));
  }
  session s(path, {.threads = 2});
  for (int run = 0; run < 2; ++run) {
    auto outs = s.run({named_value{"x", tensor::from(xs, {1, 16, 4, 4})}});
    REQUIRE(outs.size() == 1);
    test::require_close(outs[0].as_tensor(), want, 1e-6, 1e-6);
  }
}

TEST_CASE("Reshape, Flatten, Squeeze, Unsqueeze take their input's buffer when they read it last",
          "[concat_in_place]") {
  // x [1, 16, 4, 4] -> a = Relu(x) -> r = VIEW(a) -> y = Sigmoid(r) (output);
  // with `keep`, z = Abs(a) (output) reads a after r's last reader.
  struct view {
    std::string op;
    graph::model_builder::attributes attrs;
    bool shape_input;
  };
  const std::vector<view> views = {{"Reshape", {}, true},
                                   {"Flatten", {{"axis", 1}}, false},
                                   {"Unsqueeze", {}, true},
                                   {"Squeeze", {}, true}};
  for (const auto& v : views)
    for (bool keep : {false, true}) {
      INFO(v.op << (keep ? ", input read again" : ""));
      graph::model_builder b{17};
      auto x = b.input("x", dtype::float32, {1, 16, 4, 4});
      auto a = b.node("Relu", {x}, {}, std::vector<std::string>{"a"})[0];
      std::vector<std::string> in{a};
      if (v.shape_input) {
        const std::vector<std::int64_t> arg = v.op == "Reshape" ? std::vector<std::int64_t>{1, 256}
                                              : v.op == "Unsqueeze" ? std::vector<std::int64_t>{4}
                                                                    : std::vector<std::int64_t>{0};
        in.push_back(b.initializer("arg", tensor::from(arg, {static_cast<std::int64_t>(arg.size())})));
      }
      auto r = b.node(v.op, in, v.attrs, std::vector<std::string>{"r"})[0];
      b.output(b.node("Sigmoid", {r}, {}, std::vector<std::string>{"y"})[0], dtype::float32);
      if (keep) b.output(b.node("Abs", {a}, {}, std::vector<std::string>{"z"})[0], dtype::float32);
      const auto path = test::temp_path("view_in_place.onnx");
      REQUIRE(b.save(path).ok());
      auto p = plan(path, {1, 16, 4, 4});
      REQUIRE(p.offset("a") != runtime::unplanned);
      if (keep)
        CHECK(p.offset("r") != p.offset("a"));
      else
        CHECK(p.offset("r") == p.offset("a"));
      std::vector<float> xs(256);
      for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(static_cast<int>(i % 37) - 18) / 8.0f;
      std::vector<float> want_y, want_z;
      for (float e : xs) {
        want_y.push_back(1.0f / (1.0f + std::exp(-std::max(e, 0.0f))));
        want_z.push_back(std::max(e, 0.0f));
      }
      session s(path, {.threads = 2});
      for (int run = 0; run < 2; ++run) {
        auto outs = s.run({named_value{"x", tensor::from(xs, {1, 16, 4, 4})}});
        REQUIRE(outs.size() == (keep ? 2u : 1u));
        test::require_close(outs[0].as_tensor(), want_y, 1e-6, 1e-6);
        if (keep) test::require_close(outs[1].as_tensor(), want_z, 0, 0);
      }
    }
}
