// graph::passes::fuse_gemm: MatMul or Gemm followed by a constant bias Add
// runs as one Gemm with the same outputs; the new Gemm's attributes are typed.
#include <catch2/catch.hpp>
#include <filesystem>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using list = std::vector<std::string>;

using test::random_tensor;
using test::ops_of;

/// x [5, 7] -> MatMul or Gemm with W [7, 6] -> Add(c) -> y.
std::filesystem::path build_product(
    const std::string& file, const char* op, extents bias_shape, bool c_first,
    std::vector<std::pair<std::string, graph::model_builder::attribute_value>> attrs = {}) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {5, 7});
  bool trans_b = false;
  for (const auto& [name, v] : attrs) trans_b = trans_b || name == "transB";
  auto w = b.initializer("w", trans_b ? random_tensor({6, 7}, -1, 1, 1) : random_tensor({7, 6}, -1, 1, 1));
  auto y = b.node(op, {x, w}, attrs);
  auto c = b.initializer("c", random_tensor(bias_shape, -1, 1, 2));
  b.output(c_first ? b.node("Add", {c, y}) : b.node("Add", {y, c}));
  auto path = onyx::test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

std::vector<std::string> compare_product(const std::filesystem::path& path) {
  session fused(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  auto x = random_tensor({5, 7}, -1, 1, 3);
  auto want = plain.run({{"x", x}});
  auto e = want[0].as_tensor().values<float>();
  test::require_close(fused.run({{"x", x}})[0].as_tensor(), std::vector<float>(e.begin(), e.end()), 1e-5, 1e-5);
  return ops_of(fused);
}

}  // namespace

TEST_CASE("fuse_gemm: MatMul or Gemm + a constant bias becomes one Gemm") {
  CHECK(compare_product(build_product("fuse_gemm_mm.onnx", "MatMul", {6}, false)) == list{"Gemm"});
  CHECK(compare_product(build_product("fuse_gemm_mm_row.onnx", "MatMul", {1, 6}, true)) == list{"Gemm"});
  CHECK(compare_product(build_product("fuse_gemm_gemm.onnx", "Gemm", {5, 1}, false)) == list{"Gemm"});
  CHECK(compare_product(build_product("fuse_gemm_full.onnx", "MatMul", {5, 6}, false)) == list{"Gemm"});
  // A bias that would grow the output ([3, 5, 6]) stays an Add.
  CHECK(compare_product(build_product("fuse_gemm_grow.onnx", "MatMul", {3, 1, 6}, false)) == list{"MatMul", "Add"});
}

TEST_CASE("fuse_gemm: the Gemm keeps alpha and transposes, and takes C with beta 1") {
  auto path =
      build_product("fuse_gemm_attrs.onnx", "Gemm", {6}, false, {{"alpha", 0.5f}, {"beta", 3.0f}, {"transB", 1}});
  CHECK(compare_product(path) == list{"Gemm"});
  auto r = test::infer_model(path);
  REQUIRE(graph::passes::fuse_gemm(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"Gemm"});
  const auto* a = graph::passes::match<ops::Gemm>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->alpha == 0.5f);
  CHECK(a->beta == 1.0f);
  CHECK(a->transA == 0);
  CHECK(a->transB == 1);
  CHECK(r.g().nodes[0].op_type == "Gemm+Add");
}

TEST_CASE("fuse_gemm: a MatMul becomes a Gemm with default attributes") {
  auto r = test::infer_model(build_product("fuse_gemm_mm_attrs.onnx", "MatMul", {6}, false));
  REQUIRE(graph::passes::fuse_gemm(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"Gemm"});
  const auto* a = graph::passes::match<ops::Gemm>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->alpha == 1.0f);
  CHECK(a->beta == 1.0f);
  CHECK(a->transB == 0);
}
