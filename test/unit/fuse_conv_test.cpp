// graph::passes::fuse_conv: a model run with and without optimization gives
// the same outputs, and the prepared graph holds the expected nodes.
//
// Folding changes the rounding of W and B (a[m] W is rounded once instead of
// scaling each output), so outputs agree to rtol 1e-4 (float32), 1e-10 (float64).
#include <catch2/catch.hpp>
#include <filesystem>

#include "kernels/cpu/clip.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;

template <class T> tensor random_tensor(const extents& e, double lo, double hi, unsigned seed) {
  return tensor::from(test::random_values<T>(static_cast<std::size_t>(element_count(e)), lo, hi, seed), e);
}

/// x [1, C, 7, 9] -> Conv(3x3, pad 1, M out, group) -> ...; `then` adds the rest
/// and names the outputs.
template <class T, class Then>
std::filesystem::path build(const std::string& file, std::int64_t C, std::int64_t M, std::int64_t group, bool bias,
                            Then then) {
  const dtype t = dtype_of<T>;
  graph::model_builder b{17};
  auto x = b.input("x", t, {1, C, 7, 9});
  auto w = b.initializer("w", random_tensor<T>({M, C / group, 3, 3}, -1, 1, 1));
  std::vector<std::string> ins{x, w};
  if (bias) ins.push_back(b.initializer("b", random_tensor<T>({M}, -1, 1, 2)));
  auto y = b.node("Conv", ins, {{"pads", ints{1, 1, 1, 1}}, {"group", group}});
  then(b, y);
  auto path = std::filesystem::temp_directory_path() / file;
  REQUIRE(b.save(path).ok());
  return path;
}

template <class T> std::string constant(graph::model_builder& b, const std::string& name, extents e, double lo,
                                        double hi, unsigned seed) {
  return b.initializer(name, random_tensor<T>(e, lo, hi, seed));
}

/// Op types of the optimized graph, in run order.
std::vector<std::string> ops_of(const session_core& s) {
  std::vector<std::string> v;
  for (const auto& n : s.nodes()) v.push_back(n.op);
  return v;
}

/// Runs `path` optimized and not, on the same input; checks the outputs agree
/// and returns the optimized graph's op types.
template <class T> std::vector<std::string> compare(const std::filesystem::path& path, std::int64_t C, double rtol) {
  session fused(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  auto x = random_tensor<T>({1, C, 7, 9}, -1, 1, 3);
  auto got = fused.run({{"x", x}});
  auto want = plain.run({{"x", x}});
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    auto e = want[i].as_tensor().template values<T>();
    test::require_close(got[i].as_tensor(), std::vector<T>(e.begin(), e.end()), rtol, rtol);
  }
  return ops_of(fused);
}

using list = std::vector<std::string>;

}  // namespace

TEST_CASE("fuse_conv: Conv + BatchNormalization + Relu becomes one fused Conv") {
  auto path = build<float>("fuse_conv_bn_relu.onnx", 5, 6, 1, true, [](graph::model_builder& b, std::string y) {
    auto scale = constant<float>(b, "scale", {6}, 0.5, 2, 4), beta = constant<float>(b, "beta", {6}, -1, 1, 5);
    auto mean = constant<float>(b, "mean", {6}, -1, 1, 6), var = constant<float>(b, "var", {6}, 0.1, 2, 7);
    auto bn = b.node("BatchNormalization", {y, scale, beta, mean, var}, {{"epsilon", 1e-3f}});
    b.output(b.node("Relu", {bn}));
  });
  CHECK(compare<float>(path, 5, 1e-4) == list{"onyx.fused.Conv"});
}

TEST_CASE("fuse_conv: per-channel Mul, Add, Sub, Div chains fold; Clip fuses") {
  SECTION("Conv without bias, Mul [1,M,1,1], Add [M,1,1], Clip(0, 6)") {
    auto path = build<float>("fuse_conv_mul_add_clip.onnx", 4, 3, 1, false, [](graph::model_builder& b, std::string y) {
      auto m = b.node("Mul", {constant<float>(b, "s", {1, 3, 1, 1}, 0.5, 2, 4), y});
      auto a = b.node("Add", {m, constant<float>(b, "t", {3, 1, 1}, -1, 1, 5)});
      auto lo = b.initializer("lo", tensor::scalar(0.0f)), hi = b.initializer("hi", tensor::scalar(0.6f));
      b.output(b.node("Clip", {a, lo, hi}));
    });
    CHECK(compare<float>(path, 4, 1e-4) == list{"onyx.fused.Conv"});
  }
  SECTION("c - y, y / c, y - scalar: folded, no activation, so a plain Conv") {
    auto path = build<float>("fuse_conv_sub_div.onnx", 4, 3, 1, true, [](graph::model_builder& b, std::string y) {
      auto s = b.node("Sub", {constant<float>(b, "c", {3, 1, 1}, -1, 1, 4), y});
      auto d = b.node("Div", {s, constant<float>(b, "d", {1, 3, 1, 1}, 0.5, 2, 5)});
      b.output(b.node("Sub", {d, b.initializer("e", tensor::scalar(0.25f))}));
    });
    CHECK(compare<float>(path, 4, 1e-4) == list{"Conv"});
  }
  SECTION("depthwise (group = C) with BatchNormalization and Relu") {
    auto path = build<float>("fuse_conv_dw.onnx", 6, 6, 6, true, [](graph::model_builder& b, std::string y) {
      auto scale = constant<float>(b, "scale", {6}, 0.5, 2, 4), beta = constant<float>(b, "beta", {6}, -1, 1, 5);
      auto mean = constant<float>(b, "mean", {6}, -1, 1, 6), var = constant<float>(b, "var", {6}, 0.1, 2, 7);
      b.output(b.node("Relu", {b.node("BatchNormalization", {y, scale, beta, mean, var})}));
    });
    CHECK(compare<float>(path, 6, 1e-4) == list{"onyx.fused.Conv"});
  }
  SECTION("float64") {
    auto path = build<double>("fuse_conv_f64.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      auto m = b.node("Mul", {y, constant<double>(b, "s", {4, 1, 1}, 0.5, 2, 4)});
      b.output(b.node("Relu", {m}));
    });
    CHECK(compare<double>(path, 3, 1e-10) == list{"onyx.fused.Conv"});
  }
}

TEST_CASE("fuse_conv: nothing another reader sees is changed") {
  SECTION("the conv output is also a graph output") {
    auto path = build<float>("fuse_conv_out.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Mul", {y, constant<float>(b, "s", {4, 1, 1}, 0.5, 2, 4)}));
      b.output(y);
    });
    CHECK(compare<float>(path, 3, 1e-6) == list{"Conv", "Mul"});
  }
  SECTION("the conv output has two readers") {
    auto path = build<float>("fuse_conv_two.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Add", {b.node("Relu", {y}), y}));
    });
    CHECK(compare<float>(path, 3, 1e-6) == list{"Conv", "Relu", "Add"});
  }
  SECTION("after folding, the Relu's input has two readers: the fold stays, the Relu too") {
    auto path = build<float>("fuse_conv_fold_only.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      auto m = b.node("Mul", {y, constant<float>(b, "s", {4, 1, 1}, 0.5, 2, 4)});
      b.output(b.node("Add", {b.node("Relu", {m}), m}));
    });
    CHECK(compare<float>(path, 3, 1e-4) == list{"Conv", "Relu", "Add"});
  }
  SECTION("a constant that varies along a spatial axis is not per channel") {
    auto path = build<float>("fuse_conv_spatial.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Mul", {y, constant<float>(b, "s", {1, 1, 1, 9}, 0.5, 2, 4)}));
    });
    CHECK(compare<float>(path, 3, 1e-6) == list{"Conv", "Mul"});
  }
  SECTION("a non-constant operand") {
    auto path = build<float>("fuse_conv_dynamic.onnx", 3, 3, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Mul", {y, "x"}));
    });
    CHECK(compare<float>(path, 3, 1e-6) == list{"Conv", "Mul"});
  }
}

namespace {
using no_fused = registry<op_list<ops::Conv, ops::Relu, ops::Clip>, backend_list<cpu>>;
}

TEST_CASE("fuse_conv: no fused Conv in the op table, no fusion") {
  auto path = build<float>("fuse_conv_trimmed.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
    b.output(b.node("Relu", {y}));
  });
  basic_session<no_fused> s(path, {.threads = 1});
  CHECK(ops_of(s) == list{"Conv", "Relu"});
  auto x = random_tensor<float>({1, 3, 7, 9}, -1, 1, 3);
  auto want = session(path, {.threads = 1}).run({{"x", x}});
  auto e = want[0].as_tensor().values<float>();
  test::require_close(s.run({{"x", x}})[0].as_tensor(), std::vector<float>(e.begin(), e.end()), 1e-6, 1e-6);
}

namespace {

/// x [5, 7] -> MatMul or Gemm with W [7, 6] -> Add(c) -> y.
std::filesystem::path build_product(const std::string& file, const char* op, extents bias_shape, bool c_first) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {5, 7});
  auto w = b.initializer("w", random_tensor<float>({7, 6}, -1, 1, 1));
  auto y = b.node(op, {x, w});
  auto c = constant<float>(b, "c", bias_shape, -1, 1, 2);
  b.output(c_first ? b.node("Add", {c, y}) : b.node("Add", {y, c}));
  auto path = std::filesystem::temp_directory_path() / file;
  REQUIRE(b.save(path).ok());
  return path;
}

std::vector<std::string> compare_product(const std::filesystem::path& path) {
  session fused(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  auto x = random_tensor<float>({5, 7}, -1, 1, 3);
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
