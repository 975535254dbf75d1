// Hostile models (issue 15): absurd sizes, endless loops, deep nesting and
// broken API preconditions end with a clear error, never an abort. The
// memory limits are session_options::max_allocation_bytes / max_arena_bytes
// (core/memory_limits.hpp); the deadline is run_options::timeout.
// test/hostile/limits.sh runs the same models through onyx-run under a
// 4 GiB address-space limit.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using Catch::Contains;
using onyx::test::i64;


std::filesystem::path save(const graph::model_builder& b, const std::string& name) {
  auto p = test::temp_path(name);
  REQUIRE(b.save(p).ok());
  return p;
}

/// Opens `path` (must succeed) and runs it once on `in`; the run's status.
status run_once(const std::filesystem::path& path, std::vector<named_value> in, session_options so = {}) {
  so.threads = 1;
  auto s = session::open(path, so);
  if (!s.ok()) return std::move(s).error();
  std::vector<value> outs;
  return (*s)->run(std::span<const named_value>(in), outs);
}

constexpr std::int64_t M = 1000000;

}  // namespace

TEST_CASE("a 10^12-element output is an error naming the node and the size", "[limits]") {
  struct hostile {
    const char* name;
    std::function<void(graph::model_builder&)> build;
    std::vector<named_value> inputs;
    const char* size;  // as the message gives it
  };
  std::vector<hostile> cases;
  cases.push_back({"ConstantOfShape",
                   [](graph::model_builder& b) {
                     b.output(b.node("ConstantOfShape", {b.initializer("shape", i64({M, M}))}), dtype::float32);
                   },
                   {},
                   "float32 [1000000x1000000]"});
  cases.push_back({"Expand",
                   [](graph::model_builder& b) {
                     auto x = b.input("x", dtype::float32, {1});
                     b.output(b.node("Expand", {x, b.initializer("shape", i64({M, M}))}), dtype::float32);
                   },
                   {{"x", tensor::from<float>({1.f}, {1})}},
                   "float32 [1000000x1000000]"});
  cases.push_back({"Tile",
                   [](graph::model_builder& b) {
                     auto x = b.input("x", dtype::float32, {1000, 1000});
                     b.output(b.node("Tile", {x, b.initializer("repeats", i64({1000, 1000}))}), dtype::float32);
                   },
                   {{"x", tensor::zeros(dtype::float32, {1000, 1000})}},
                   "float32 [1000000x1000000]"});
  cases.push_back({"Range",
                   [](graph::model_builder& b) {
                     auto start = b.initializer("start", tensor::scalar<std::int64_t>(0));
                     auto limit = b.initializer("limit", tensor::scalar<std::int64_t>(M * M));
                     auto delta = b.initializer("delta", tensor::scalar<std::int64_t>(1));
                     b.output(b.node("Range", {start, limit, delta}), dtype::int64);
                   },
                   {},
                   "int64 [1000000000000]"});
  cases.push_back({"Resize",
                   [](graph::model_builder& b) {
                     auto x = b.input("x", dtype::float32, {1, 1, 1000, 1000});
                     auto scales = b.initializer("scales", tensor::from<float>({1.f, 1.f, 1000.f, 1000.f}, {4}));
                     b.output(b.node("Resize", {x, "", scales}), dtype::float32);
                   },
                   {{"x", tensor::zeros(dtype::float32, {1, 1, 1000, 1000})}},
                   "float32 [1x1x1000000x1000000]"});
  for (auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      graph::model_builder b;
      c.build(b);
      const auto path = save(b, std::string("limits_") + c.name + ".onnx");
      status st = run_once(path, c.inputs);
      REQUIRE_FALSE(st.ok());
      CHECK(st.code() == errc::resource_exhausted);
      CHECK_THAT(st.message(), Contains(c.name) && Contains(c.size) && Contains("max_allocation_bytes"));
    }
  }
}

TEST_CASE("a size known only at run time is checked before allocating", "[limits]") {
  graph::model_builder b;
  auto shape = b.input("shape", dtype::int64, {2});
  b.output(b.node("ConstantOfShape", {shape}), dtype::float32);
  const auto path = save(b, "limits_runtime_shape.onnx");
  status st = run_once(path, {{"shape", i64({M, M})}});
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == errc::resource_exhausted);
  CHECK_THAT(st.message(), Contains("ConstantOfShape") && Contains("[1000000x1000000]"));
  // Dims whose product overflows int64 are caught too.
  st = run_once(path, {{"shape", i64({std::int64_t{1} << 40, std::int64_t{1} << 40})}});
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == errc::resource_exhausted);
  CHECK_THAT(st.message(), Contains("does not fit"));
  // Within the limits, the same session works.
  CHECK(run_once(path, {{"shape", i64({2, 3})}}).ok());
}

TEST_CASE("session_options::max_allocation_bytes and max_arena_bytes", "[limits]") {
  graph::model_builder b;
  auto x = b.input("x", dtype::float32, {"n", 256});
  auto y = b.node("Relu", {x});
  auto z = b.node("Exp", {y});  // not Neg: Relu, Neg, Abs would run as one fused region, no intermediates
  b.output(b.node("Abs", {z}));
  const auto path = save(b, "limits_options.onnx");
  const auto in = tensor::zeros(dtype::float32, {1024, 256});  // 1 MiB a tensor
  SECTION("the defaults (physical memory) let it run") { CHECK(run_once(path, {{"x", in}}).ok()); }
  SECTION("a tensor over max_allocation_bytes") {
    status st = run_once(path, {{"x", in}}, {.max_allocation_bytes = 512 * 1024});
    REQUIRE_FALSE(st.ok());
    CHECK(st.code() == errc::resource_exhausted);
    CHECK_THAT(st.message(), Contains("Relu") && Contains("float32 [1024x256]") && Contains("1048576 bytes"));
    CHECK(run_once(path, {{"x", tensor::zeros(dtype::float32, {16, 256})}}, {.max_allocation_bytes = 512 * 1024}).ok());
  }
  SECTION("an arena over max_arena_bytes") {
    // Two intermediates live at once: 2 MiB of arena, each tensor 1 MiB.
    status st = run_once(path, {{"x", in}}, {.max_arena_bytes = 1536 * 1024});
    REQUIRE_FALSE(st.ok());
    CHECK(st.code() == errc::resource_exhausted);
    CHECK_THAT(st.message(), Contains("max_arena_bytes") && Contains("arena of"));
  }
}

TEST_CASE("an output the kernel allocates (data-dependent size) is checked too", "[limits]") {
  graph::model_builder b;
  auto x = b.input("x", dtype::float32, {1000});
  b.output(b.node("NonZero", {x}), dtype::int64);
  const auto path = save(b, "limits_nonzero.onnx");
  std::vector<float> ones(1000, 1.0f);
  status st = run_once(path, {{"x", tensor::from<float>(ones, {1000})}}, {.max_allocation_bytes = 4000});
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == errc::resource_exhausted);
  CHECK_THAT(st.message(), Contains("NonZero") && Contains("int64 [1x1000]") && Contains("8000 bytes"));
  CHECK(run_once(path, {{"x", tensor::from<float>(ones, {1000})}}).ok());
}

namespace {
/// Loop(10^15, true) { acc + 1 }: legal, and endless in practice.
std::filesystem::path endless_loop() {
  graph::model_builder b;
  auto trip = b.initializer("trip", tensor::scalar<std::int64_t>(M * M * 1000));
  auto cond = b.initializer("cond", tensor::scalar(true));
  auto acc = b.input("acc", dtype::float32, {1});
  auto body = b.subgraph("body");
  body.input("i", dtype::int64, {});
  auto c = body.input("c_in", dtype::boolean, {});
  auto a = body.input("a_in", dtype::float32, {1});
  auto one = body.constant(tensor::from<float>({1.f}, {1}));
  body.output(body.node("Identity", {c}), dtype::boolean, {});
  body.output(body.node("Add", {a, one}), dtype::float32, {1});
  b.output(b.node("Loop", {trip, cond, acc}, {{"body", body}}), dtype::float32);
  return save(b, "limits_loop.onnx");
}
}  // namespace

TEST_CASE("run_options::timeout ends a 10^15-iteration Loop", "[limits]") {
  session s(endless_loop(), {.threads = 1});
  std::vector<named_value> in{{"acc", tensor::from<float>({0.f}, {1})}};
  std::vector<value> outs;
  run_options ro;
  ro.timeout = std::chrono::milliseconds(200);
  const auto t0 = std::chrono::steady_clock::now();
  status st = s.run(std::span<const named_value>(in), outs, ro);
  const auto waited = std::chrono::steady_clock::now() - t0;
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == errc::cancelled);
  CHECK_THAT(st.message(), Contains("deadline") && Contains("Loop"));
  CHECK(waited < std::chrono::seconds(20));
}

TEST_CASE("terminate from another thread ends a 10^15-iteration Loop", "[limits]") {
  session s(endless_loop(), {.threads = 1});
  std::vector<named_value> in{{"acc", tensor::from<float>({0.f}, {1})}};
  std::vector<value> outs;
  std::atomic<bool> stop{false};
  status st;
  std::thread t([&] { st = s.run(std::span<const named_value>(in), outs, run_options{&stop}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stop = true;
  t.join();
  CHECK(st.code() == errc::cancelled);
  CHECK_THAT(st.message(), Contains("terminated"));
}

TEST_CASE("terminate stops a long Conv inside its kernel, not only between nodes", "[limits]") {
  // One Conv of ~105 GFLOP (64 -> 64 channels, 7x7, over 512x512): seconds
  // at any ISA level. The executor checks the stop flag between nodes; the
  // Conv kernel checks it between its tiles (kernel_call::stop_requested).
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 64, 512, 512});
  auto w = b.initializer("w", tensor::zeros(dtype::float32, {64, 64, 7, 7}));
  b.output(b.node("Conv", {x, w}, {{"pads", std::vector<std::int64_t>{3, 3, 3, 3}}}), dtype::float32);
  session s(save(b, "limits_long_conv.onnx"), {.threads = 1});
  std::vector<named_value> in{{"x", tensor::zeros(dtype::float32, {1, 64, 512, 512})}};
  std::vector<value> outs;
  std::atomic<bool> stop{false};
  status st;
  const auto t0 = std::chrono::steady_clock::now();
  std::thread t([&] { st = s.run(std::span<const named_value>(in), outs, run_options{&stop}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  stop = true;
  t.join();
  const auto waited = std::chrono::steady_clock::now() - t0;
  REQUIRE_FALSE(st.ok());
  CHECK(st.code() == errc::cancelled);
  CHECK_THAT(st.message(), Contains("Conv") && Contains("inside the kernel"));
  CHECK(waited < std::chrono::seconds(20));
}

TEST_CASE("subgraphs nested thousands deep are refused cleanly", "[limits]") {
  graph::model_builder b{17};
  auto& m = b.proto();
  onnx::GraphProto* g = m.mutable_graph();
  // If(true) { If(true) { ... { Constant } } } else { Constant }, 3000 deep.
  for (int depth = 0; depth < 3000; ++depth) {
    auto* cond = g->add_initializer();
    cond->set_name("c" + std::to_string(depth));
    cond->set_data_type(onnx::TensorProto::BOOL);
    cond->add_int32_data(1);
    auto* n = g->add_node();
    n->set_op_type("If");
    n->add_input(cond->name());
    n->add_output("y" + std::to_string(depth));
    g->add_output()->set_name("y" + std::to_string(depth));
    auto* else_attr = n->add_attribute();
    else_attr->set_name("else_branch");
    else_attr->set_type(onnx::AttributeProto::GRAPH);
    auto* eg = else_attr->mutable_g();
    auto* k = eg->add_node();
    k->set_op_type("Constant");
    k->add_output("e" + std::to_string(depth));
    auto* v = k->add_attribute();
    v->set_name("value_float");
    v->set_type(onnx::AttributeProto::FLOAT);
    v->set_f(1.f);
    eg->add_output()->set_name("e" + std::to_string(depth));
    auto* then_attr = n->add_attribute();
    then_attr->set_name("then_branch");
    then_attr->set_type(onnx::AttributeProto::GRAPH);
    g = then_attr->mutable_g();
  }
  auto* k = g->add_node();
  k->set_op_type("Constant");
  k->add_output("last");
  auto* v = k->add_attribute();
  v->set_name("value_float");
  v->set_type(onnx::AttributeProto::FLOAT);
  v->set_f(1.f);
  g->add_output()->set_name("last");
  const auto path = save(b, "limits_nested.onnx");
  auto s = session::open(path, {.threads = 1});
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code() == errc::invalid_model);
  CHECK_THAT(s.error().message(), Contains("limits_nested.onnx"));
  CHECK_THAT(s.error().message(), Contains("nested deeper than protobuf's limit of 100 levels"));
  // The same bytes in memory, and a shallow model cut short, which is only truncated.
  const std::string bytes = b.proto().SerializeAsString();
  CHECK(graph::wire_nesting_depth(bytes) > 3 * 3000);
  auto from_bytes = graph::load_model_from_bytes(bytes, session::all_ops());
  REQUIRE_FALSE(from_bytes.ok());
  CHECK_THAT(from_bytes.error().message(), Contains("nested deeper"));
  graph::model_builder shallow{17};
  shallow.output(shallow.node("Relu", {shallow.input("x", dtype::float32, {2})}), dtype::float32);
  const std::string whole = shallow.proto().SerializeAsString();
  CHECK(graph::wire_nesting_depth(whole) >= 4);  // model, graph, node / value info, type, ...
  CHECK(graph::wire_nesting_depth(whole) < 12);
  auto cut = graph::load_model_from_bytes(std::string_view(whole).substr(0, whole.size() - 3), session::all_ops());
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.error().message(), Contains("truncated or not a protobuf"));
}

TEST_CASE("a model-local function that calls itself is refused", "[limits]") {
  graph::model_builder b{17};
  b.import("local", 1);
  auto x = b.input("x", dtype::float32, {2});
  b.output(b.node({"local", "f"}, {x}), dtype::float32);
  auto* f = b.proto().add_functions();
  f->set_name("f");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  f->add_opset_import()->set_version(17);
  auto* fi = f->add_opset_import();
  fi->set_domain("local");
  fi->set_version(1);
  auto* n = f->add_node();
  n->set_op_type("f");
  n->set_domain("local");
  n->add_input("a");
  n->add_output("b");
  const auto path = save(b, "limits_recursive_function.onnx");
  auto s = session::open(path, {.threads = 1});
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code() == errc::invalid_model);
  CHECK_THAT(s.error().message(), Contains("recursion"));
}

TEST_CASE("a string that claims 2^31 bytes in a short file is a clean error", "[limits]") {
  // ModelProto { graph (7) { initializer (5) { data_type (2) = STRING,
  // string_data (6) = <length 2^31, then 3 bytes> } } }, each length as
  // it would be for a full file.
  auto varint = [](std::string& s, std::uint64_t v) {
    do {
      std::uint8_t byte = v & 0x7f;
      v >>= 7;
      s.push_back(static_cast<char>(byte | (v ? 0x80 : 0)));
    } while (v);
  };
  const std::uint64_t claimed = std::uint64_t{1} << 31;
  std::string tensor_msg;
  tensor_msg += '\x10';  // field 2, varint
  varint(tensor_msg, 8);  // STRING
  tensor_msg += '\x32';  // field 6, length-delimited
  varint(tensor_msg, claimed);
  std::string graph_msg = "\x2a";  // field 5, length-delimited
  varint(graph_msg, tensor_msg.size() + claimed);
  std::string model = "\x08\x08";  // ir_version 8
  model += '\x3a';                 // field 7, length-delimited
  varint(model, graph_msg.size() + tensor_msg.size() + claimed);
  model += graph_msg + tensor_msg + "abc";
  auto s = session::open_bytes(model, {.threads = 1});
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code() == errc::invalid_model);
}

TEST_CASE("public API preconditions are checked in every build", "[limits][api]") {
  std::vector<float> big(std::size_t{1} << 20, 1.0f);
  SECTION("tensor::from with more values than the shape holds") {
    CHECK_THROWS_AS(tensor::from(big, {2, 2}), onyx::error);
    auto r = tensor::try_from(std::span<const float>(big), {2, 2});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code() == errc::invalid_argument);
    CHECK_THAT(r.error().message(), Contains("1048576 values") && Contains("[2x2]") && Contains("holds 4"));
  }
  SECTION("tensor::from with fewer values, or a negative dim") {
    CHECK_THROWS_AS(tensor::from<float>({1.f, 2.f}, {2, 2}), onyx::error);
    CHECK_THROWS_AS(tensor::from<float>({1.f, 2.f}, {-1, -2}), onyx::error);
    CHECK_THROWS_AS(tensor::zeros(dtype::float32, {-4}), onyx::error);
  }
  SECTION("reshaped to another element count") {
    auto t = tensor::from<float>({1.f, 2.f, 3.f, 4.f}, {2, 2});
    CHECK_THROWS_AS(t.reshaped({8}), onyx::error);
    CHECK(t.reshaped({4}).size() == 4);
  }
  SECTION("dim past the rank") {
    auto t = tensor::from<float>({1.f, 2.f, 3.f, 4.f}, {2, 2});
    CHECK_THROWS_AS(t.dim(2), onyx::error);
  }
  SECTION("reading elements wider than the tensor's") {
    auto t = tensor::from<float>({1.f, 2.f}, {2});
    CHECK_THROWS_AS(t.data<double>(), onyx::error);
    CHECK_THROWS_AS(t.values<std::int64_t>(), onyx::error);
    CHECK(t.data<std::int32_t>() != nullptr);  // same width: a bit view
  }
  SECTION("a tensor whose size overflows") {
    CHECK_THROWS_AS(tensor::zeros(dtype::float32, {std::int64_t{1} << 40, std::int64_t{1} << 40}), std::bad_alloc);
  }
}

TEST_CASE("a declared output shape that inference cannot check is not trusted", "[limits]") {
  // Squeeze with its axes a graph input: inference cannot know the output's
  // rank, and the model declares a shape of 792 elements for a 60-element x
  // (a fuzzer finding: the run used to copy 792 floats out of x).
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 3, 4, 5});
  auto axes = b.input("axes", dtype::int64, {"n"});
  b.output(b.node("Squeeze", {x, axes}), dtype::float32, {3, 4, 66});
  const auto path = save(b, "limits_declared_shape.onnx");
  session s(path, {.threads = 1});
  std::vector<float> xs(60);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i);
  const tensor xt = tensor::from(xs, {1, 3, 4, 5});
  // The run's own shape, not the declaration.
  auto out = s.run({{"x", value(xt)}, {"axes", value(tensor::from(std::vector<std::int64_t>{0}, {1}))}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].as_tensor().shape() == extents{3, 4, 5});
  CHECK(out[0].as_tensor().values<float>()[59] == 59.0f);
  // Axes that do not fit x (axis 1 is 3 long) are refused, naming the node.
  std::vector<value> outs;
  const std::vector<named_value> bad{{"x", value(xt)},
                                     {"axes", value(tensor::from(std::vector<std::int64_t>{0, 1}, {2}))}};
  const status st = s.run(std::span<const named_value>(bad), outs);
  CHECK_FALSE(st.ok());
  CHECK_THAT(st.message(), Contains("Squeeze"));
}
