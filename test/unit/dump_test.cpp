// graph::dump and session_options::dump_stages: the graph as text, and one
// file per pipeline stage (load, normalize, infer, each pass), as
// `onyx-run --dump-stages DIR` writes them.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onyx/graph/dump.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/passes/passes.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("dump: one line per input, node and output, with types and small constants") {
  graph::graph g;
  g.name = "main";
  const int x = g.add_value("x", {value_kind::tensor, dtype::float32, sym_shape({dim(2), dim::symbol("N")})});
  const int s = g.add_value("s");
  g.values[s].constant = tensor::from<std::int64_t>({-1}, {1});
  const int w = g.add_value("w");
  g.values[w].constant = tensor::zeros(dtype::float32, {3, 3});
  const int y = g.add_value("y", {value_kind::tensor, dtype::float32, sym_shape::unknown_rank()});
  const int z = g.add_value("z");
  graph::node n;
  n.name = "r";
  n.op_type = "Reshape";
  n.inputs = {x, s};
  n.outputs = {y};
  g.nodes.push_back(n);
  n.name = "m";
  n.op_type = "MatMul";
  n.inputs = {y, w, -1};
  n.outputs = {z};
  g.nodes.push_back(n);
  g.inputs = {x};
  g.outputs = {z};

  CHECK(graph::dump(g) ==
        "graph 'main': 1 input, 1 output, 2 nodes\n"
        "input  x: float32[2,N]\n"
        "node   'r' Reshape: x: float32[2,N], s: int64[1] const = {-1} -> y: float32[?]\n"
        "node   'm' MatMul: y: float32[?], w: float32[3,3] const, _ -> z: ?\n"
        "output z: ?\n");

  // With inference's state: its types, and the values it propagated.
  auto st = graph::initial_state(g);
  st.types[y] = {value_kind::tensor, dtype::float32, sym_shape({dim::symbol("N") * dim(2)})};
  st.types[z] = {value_kind::tensor, dtype::float32, sym_shape({dim(3)})};
  st.known[z] = tensor::from<float>({0.5f, 0, 0}, {3});
  const std::string text = graph::dump(g, &st);
  CHECK(has(text, "-> z: float32[3] = {0.5, 0, 0}\n"));
  CHECK(has(text, "output z: float32[3] = {0.5, 0, 0}\n"));
}

TEST_CASE("session_options::dump_stages writes the graph after each stage") {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {1, 3, 7, 9});
  auto w = b.initializer("w", tensor::zeros(dtype::float32, {4, 3, 3, 3}));
  auto bias = b.initializer("b", tensor::zeros(dtype::float32, {4}));
  auto y = b.node("Conv", {x, w, bias}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto r = b.node("Relu", {y});
  b.output(b.node("Reshape", {r, b.initializer("shape", tensor::from<std::int64_t>({1, -1}, {2}))}));
  const auto model = onyx::test::temp_path("dump_stages.onnx");
  REQUIRE(b.save(model).ok());
  const auto dir = onyx::test::temp_path("onyx_dump_stages_test");
  std::filesystem::remove_all(dir);

  session s(model, {.threads = 1, .dump_stages = dir});

  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  // Load, normalize and infer, then one file per pass of the pipeline, in order.
  std::vector<std::string> want{"00_load.txt", "01_normalize.txt", "02_infer.txt"};
  std::string fuse_conv_file;
  for (const auto& p : graph::passes::pipeline) {
    const int k = static_cast<int>(want.size());
    want.push_back((k < 10 ? "0" : "") + std::to_string(k) + "_" + std::string(p.name) + ".txt");
    if (p.name == "fuse_conv") fuse_conv_file = want.back();
  }
  CHECK(files == want);

  const auto load = read_text(dir / "00_load.txt");
  CHECK(has(load, "graph '"));
  CHECK(has(load, "input  x: float32[1,3,7,9]\n"));
  CHECK(has(load,
            "node   'n0' Conv: x: float32[1,3,7,9], w: float32[4,3,3,3] const, b: float32[4] const = {0, 0, 0, 0} -> "
            "n0_out0: ?\n"));
  CHECK(has(load, "shape: int64[2] const = {1, -1}"));

  const auto infer = read_text(dir / "02_infer.txt");
  CHECK(has(infer, "-> n0_out0: float32[1,4,7,9]\n"));
  CHECK(has(infer, "node   'n1' Relu: n0_out0: float32[1,4,7,9] -> n1_out0: float32[1,4,7,9]\n"));
  CHECK(has(infer, "-> n2_out0: float32[1,252]\n"));

  REQUIRE(!fuse_conv_file.empty());
  const auto fused = read_text(dir / fuse_conv_file);
  CHECK(has(fused, "node   'n0' onyx.fused.Conv (Conv+Relu): x: float32[1,3,7,9]"));
  CHECK(!has(fused, " Relu:"));
  CHECK(has(read_text(dir / "04_fold_constants.txt"), "node   'n1' Relu:"));  // after 03_fuse_qdq
  CHECK(read_text(dir / want.back()) == fused);  // remove_dead_nodes, last, had nothing to remove

  // Without the option nothing is written.
  std::filesystem::remove_all(dir);
  session quiet(model, {.threads = 1});
  CHECK(!std::filesystem::exists(dir));
}
