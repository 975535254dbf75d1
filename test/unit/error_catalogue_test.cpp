// The error catalogue (issue 15, item 6): bad inputs a user or a model can
// bring, each of which must end in a status that names the node and its op
// (where there is one) and what was expected, never a crash or garbage.
#include <catch2/catch.hpp>

#include <fstream>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using Catch::Contains;
using onyx::test::i64;


std::filesystem::path save(const graph::model_builder& b, const std::string& name) {
  auto p = test::temp_path("catalogue_" + name + ".onnx");
  REQUIRE(b.save(p).ok());
  return p;
}

/// The status of opening `path` and, if that works, running it on `in`.
status open_and_run(const std::filesystem::path& path, std::vector<named_value> in) {
  auto s = session::open(path, {.threads = 1});
  if (!s.ok()) return std::move(s).error();
  std::vector<value> outs;
  return (*s)->run(std::span<const named_value>(in), outs);
}

/// x:float32[2,3] -> Relu -> y
std::filesystem::path relu_model() {
  graph::model_builder b;
  b.output(b.node("Relu", {b.input("x", dtype::float32, {2, 3})}));
  return save(b, "relu");
}


}  // namespace

TEST_CASE("catalogue: the caller's inputs", "[errors]") {
  const auto path = relu_model();
  const auto good = tensor::zeros(dtype::float32, {2, 3});
  SECTION("wrong input name") {
    status st = open_and_run(path, {{"nope", good}});
    CHECK(st.code() == errc::invalid_argument);
    CHECK_THAT(st.message(), Contains("'nope'") && Contains("x (float32 [2,3])"));
  }
  SECTION("missing input") {
    status st = open_and_run(path, {});
    CHECK(st.code() == errc::invalid_argument);
    CHECK_THAT(st.message(), Contains("'x' is missing"));
  }
  SECTION("wrong dtype") {
    status st = open_and_run(path, {{"x", tensor::zeros(dtype::int64, {2, 3})}});
    CHECK(st.code() == errc::invalid_argument);
    CHECK_THAT(st.message(), Contains("'x'") && Contains("int64") && Contains("expected float32"));
  }
  SECTION("wrong rank") {
    status st = open_and_run(path, {{"x", tensor::zeros(dtype::float32, {6})}});
    CHECK(st.code() == errc::invalid_argument);
    CHECK_THAT(st.message(), Contains("'x'") && Contains("[6]") && Contains("expected [2,3]"));
  }
  SECTION("wrong static dim") {
    status st = open_and_run(path, {{"x", tensor::zeros(dtype::float32, {2, 4})}});
    CHECK(st.code() == errc::invalid_argument);
    CHECK_THAT(st.message(), Contains("'x'") && Contains("[2,4]") && Contains("expected [2,3]"));
  }
  SECTION("negative dims are refused when the tensor is made") {
    CHECK_THROWS_AS(tensor::zeros(dtype::float32, {2, -3}), onyx::error);
  }
}

TEST_CASE("catalogue: indices out of range name the node, the op and the bound", "[errors]") {
  struct indexed {
    const char* op;
    std::function<std::string(graph::model_builder&, const std::string& data)> build;
    const char* expect;  // a piece of the message that states the bound
  };
  std::vector<indexed> cases{
      {"Gather",
       [](graph::model_builder& b, const std::string& x) {
         return b.node("Gather", {x, b.initializer("i", i64({0, 7}))});
       },
       "7"},
      {"ScatterElements",
       [](graph::model_builder& b, const std::string& x) {
         auto idx = b.initializer("i", tensor::from<std::int64_t>({0, 9, 0}, {1, 3}));
         auto upd = b.initializer("u", tensor::from<float>({1.f, 2.f, 3.f}, {1, 3}));
         return b.node("ScatterElements", {x, idx, upd}, {{"axis", 1}});
       },
       "9"},
      {"GatherND",
       [](graph::model_builder& b, const std::string& x) {
         return b.node("GatherND", {x, b.initializer("i", tensor::from<std::int64_t>({5, 0}, {1, 2}))});
       },
       "5"},
      {"OneHot",
       [](graph::model_builder& b, const std::string&) {
         // OneHot ignores out-of-range indices by the spec (all-off rows);
         // a depth that is not positive is what it refuses.
         auto idx = b.initializer("i", i64({0, 1}));
         auto depth = b.initializer("d", tensor::scalar<std::int64_t>(-3));
         auto vals = b.initializer("v", tensor::from<float>({0.f, 1.f}, {2}));
         return b.node("OneHot", {idx, depth, vals});
       },
       "-3"},
      {"TopK",
       [](graph::model_builder& b, const std::string& x) {
         return b.node("TopK", {x, b.initializer("k", i64({11}))}, {}, 2)[0];
       },
       "11"},
  };
  for (auto& c : cases) {
    DYNAMIC_SECTION(c.op) {
      graph::model_builder b;
      auto x = b.input("x", dtype::float32, {2, 3});
      b.output(c.build(b, x));
      const auto path = save(b, c.op);
      status st = open_and_run(path, {{"x", tensor::zeros(dtype::float32, {2, 3})}});
      REQUIRE_FALSE(st.ok());
      INFO(st.message());
      CHECK((st.code() == errc::out_of_range || st.code() == errc::invalid_graph ||
             st.code() == errc::invalid_argument || st.code() == errc::invalid_model));
      CHECK_THAT(st.message(), Contains(std::string(c.op) + " 'n0'") && Contains(c.expect));
    }
  }
}

TEST_CASE("catalogue: the model's own mistakes", "[errors]") {
  SECTION("an invalid attribute") {
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node("Softmax", {x}, {{"axis", 5}}));
    status st = open_and_run(save(b, "bad_axis"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Softmax 'n0'") && Contains("axis"));
  }
  SECTION("an attribute of the wrong type") {
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node("Softmax", {x}, {{"axis", 1.5f}}));
    status st = open_and_run(save(b, "float_axis"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Softmax") && Contains("axis"));
  }
  SECTION("a negative dim in a Reshape target") {
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node("Reshape", {x, b.initializer("s", i64({-2, 3}))}));
    status st = open_and_run(save(b, "reshape_negative"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Reshape 'n0'") && Contains("-2"));
  }
  SECTION("a required input left out") {
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node("Gemm", {x}));
    status st = open_and_run(save(b, "gemm_one_input"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Gemm 'n0'") && Contains("input"));
  }
  SECTION("a required input or output left unnamed") {
    // Slice's ends, Add's B: required positions the model leaves as "" (the
    // compact fuzzer's finding: the kernel read a missing input).
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node("Slice", {x, b.initializer("st", i64({0})), ""}));
    status st = open_and_run(save(b, "slice_no_ends"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Slice 'n0'") && Contains("input 2 is required"));

    graph::model_builder a;
    auto y = a.input("x", dtype::float32, {2, 3});
    a.output(a.node("Add", {"", y}));
    st = open_and_run(save(a, "add_no_a"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Add 'n0'") && Contains("input 0 is required"));
  }
  SECTION("an absurd window attribute") {
    // A pad of 7e18 overflowed the window arithmetic (compact-fuzz finding).
    graph::model_builder b;
    auto x = b.input("x", dtype::float32, {1, 1, 4, 4});
    auto w = b.initializer("w", tensor::zeros(dtype::float32, {1, 1, 3, 3}));
    const std::int64_t huge = std::int64_t{7} << 60;
    b.output(b.node("Conv", {x, w}, {{"pads", std::vector<std::int64_t>{huge, 0, huge, 0}}}));
    status st = open_and_run(save(b, "conv_huge_pads"), {{"x", tensor::zeros(dtype::float32, {1, 1, 4, 4})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK_THAT(st.message(), Contains("Conv 'n0'") && Contains("pads value") && Contains("is above"));
  }
  SECTION("an unknown op") {
    graph::model_builder b;
    b.output(b.node("NoSuchOp", {b.input("x", dtype::float32, {2})}), dtype::float32);
    status st = open_and_run(save(b, "unknown_op"), {});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK(st.code() == errc::unsupported);
    CHECK_THAT(st.message(), Contains("NoSuchOp"));
  }
  SECTION("an op the model's opset does not have") {
    // LayerNormalization entered the default domain at opset 17.
    graph::model_builder b{12};
    auto x = b.input("x", dtype::float32, {2, 3});
    auto scale = b.initializer("s", tensor::from<float>({1.f, 1.f, 1.f}, {3}));
    b.output(b.node("LayerNormalization", {x, scale}));
    status st = open_and_run(save(b, "opset12_layer_norm"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK(st.code() == errc::unsupported);
    CHECK_THAT(st.message(), Contains("LayerNormalization") && Contains("12"));
  }
  SECTION("a domain at a version onyx does not have") {
    graph::model_builder b{17};
    b.import("ai.onnx.ml", 99);
    auto x = b.input("x", dtype::float32, {2, 3});
    b.output(b.node({"ai.onnx.ml", "Normalizer"}, {x}, {{"norm", std::string("MAX")}}), dtype::float32);
    status st = open_and_run(save(b, "ml_opset99"), {{"x", tensor::zeros(dtype::float32, {2, 3})}});
    INFO(st.message());
    // Newer opsets of a domain run each op at its latest semantics onyx has
    // (an op changed at a newer opset than onyx knows would not be caught).
    CHECK(st.ok());
  }
}

TEST_CASE("catalogue: files that are not (whole) models", "[errors]") {
  SECTION("a truncated file") {
    graph::model_builder b;
    b.output(b.node("Relu", {b.input("x", dtype::float32, {2, 3})}));
    std::string bytes = b.serialize();
    auto p = test::temp_path("catalogue_truncated.onnx");
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
    auto s = session::open(p, {.threads = 1});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code() == errc::invalid_model);
    CHECK_THAT(s.error().message(), Contains("catalogue_truncated.onnx"));
  }
  SECTION("a file that is not a model") {
    auto p = test::temp_path("catalogue_text.onnx");
    std::ofstream(p) << "this is a text file, not an ONNX model\n";
    auto s = session::open(p, {.threads = 1});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code() == errc::invalid_model);
    CHECK_THAT(s.error().message(), Contains("catalogue_text.onnx"));
  }
  SECTION("a file that does not exist") {
    auto s = session::open(test::temp_path("catalogue_missing.onnx"), {.threads = 1});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code() == errc::io);
    CHECK_THAT(s.error().message(), Contains("catalogue_missing.onnx"));
  }
}
