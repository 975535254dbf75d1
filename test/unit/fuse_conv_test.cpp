// graph::passes::fuse_conv: a model run with and without optimization gives
// the same outputs, the prepared graph holds the expected nodes, and the
// fused Conv carries its activation typed.
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
#include "onyx/registry/prebuilt.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;

using test::random_tensor;

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
  auto path = onyx::test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

template <class T>
std::string constant(graph::model_builder& b, const std::string& name, extents e, double lo, double hi, unsigned seed) {
  return b.initializer(name, random_tensor<T>(e, lo, hi, seed));
}

using test::ops_of;

/// Runs `path` optimized and not, on the same input; checks the outputs agree
/// and returns the optimized graph's op types.
template <class T>
std::vector<std::string> compare(const std::filesystem::path& path, std::int64_t C, double rtol) {
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

TEST_CASE("fuse_conv: a residual Add or Sum (and a Relu after it) joins the Conv") {
  // Z = Sigmoid(x) comes after the Conv in node order, so the fused node must
  // take the Add's place. Where Z dies at the Add the planner gives Y Z's
  // buffer (planned::overwrites_input); where a later node still reads Z it
  // must not, and that node's output shows whether Z survived.
  SECTION("im2col GEMM path, Add then Relu, Z dies at the Add") {
    auto path = build<float>("fuse_conv_residual.onnx", 5, 5, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Relu", {b.node("Add", {y, b.node("Sigmoid", {"x"})})}));
    });
    CHECK(compare<float>(path, 5, 1e-4) == list{"Sigmoid", "onyx.fused.Conv"});
  }
  SECTION("Sum(Z, y) without an activation; Z read again afterwards") {
    auto path = build<float>("fuse_conv_residual_sum.onnx", 5, 5, 1, false, [](graph::model_builder& b, std::string y) {
      auto z = b.node("Sigmoid", {"x"});
      b.output(b.node("Sum", {z, y}));
      b.output(b.node("Mul", {z, z}));
    });
    CHECK(compare<float>(path, 5, 1e-4) == list{"Sigmoid", "onyx.fused.Conv", "Mul"});
  }
  SECTION("depthwise: Z added after the conv, then Clip") {
    auto path = build<float>("fuse_conv_residual_dw.onnx", 6, 6, 6, true, [](graph::model_builder& b, std::string y) {
      auto lo = b.initializer("lo", tensor::scalar(0.0f)), hi = b.initializer("hi", tensor::scalar(0.5f));
      b.output(b.node("Clip", {b.node("Add", {b.node("Sigmoid", {"x"}), y}), lo, hi}));
    });
    CHECK(compare<float>(path, 6, 1e-4) == list{"Sigmoid", "onyx.fused.Conv"});
  }
  SECTION("Z = the Conv's own input: no shared buffer, same result") {
    auto path = build<float>("fuse_conv_residual_x.onnx", 4, 4, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Relu", {b.node("Add", {y, "x"})}));
    });
    CHECK(compare<float>(path, 4, 1e-4) == list{"onyx.fused.Conv"});
  }
  SECTION("a Z that broadcasts is not a residual") {
    auto path = build<float>("fuse_conv_residual_bcast.onnx", 4, 4, 1, true, [](graph::model_builder& b, std::string y) {
      b.output(b.node("Relu", {b.node("Add", {y, b.input("z", dtype::float32, {1, 4, 1, 9})})}));
    });
    session fused(path, {.threads = 1});
    CHECK(ops_of(fused) == list{"Conv", "Add", "Relu"});
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
    // the Conv stays; Relu and Add run as one region (fuse_elementwise)
    CHECK(compare<float>(path, 3, 1e-6) == list{"Conv", "onyx.fused.Elementwise"});
  }
  SECTION("after folding, the Relu's input has two readers: the fold stays, the Relu too") {
    auto path = build<float>("fuse_conv_fold_only.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
      auto m = b.node("Mul", {y, constant<float>(b, "s", {4, 1, 1}, 0.5, 2, 4)});
      b.output(b.node("Add", {b.node("Relu", {m}), m}));
    });
    CHECK(compare<float>(path, 3, 1e-4) == list{"Conv", "onyx.fused.Elementwise"});
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
using no_fused = prebuilt_registry<op_list<ops::Conv, ops::Relu, ops::Clip>, backend_list<cpu>>;
}

TEST_CASE("fuse_conv: no fused Conv in the op table, no fusion") {
  auto path = build<float>("fuse_conv_trimmed.onnx", 3, 4, 1, true,
                           [](graph::model_builder& b, std::string y) { b.output(b.node("Relu", {y})); });
  basic_session<no_fused> s(path, {.threads = 1});
  CHECK(ops_of(s) == list{"Conv", "Relu"});
  auto x = random_tensor<float>({1, 3, 7, 9}, -1, 1, 3);
  auto want = session(path, {.threads = 1}).run({{"x", x}});
  auto e = want[0].as_tensor().values<float>();
  test::require_close(s.run({{"x", x}})[0].as_tensor(), std::vector<float>(e.begin(), e.end()), 1e-6, 1e-6);
}

namespace {

using graph::passes::match;

/// The graph of `path` after inference and fuse_conv alone.
test::inferred_model fused(const std::filesystem::path& path) {
  auto r = test::infer_model(path);
  REQUIRE(graph::passes::fuse_conv(r.g(), r.st, r.ops).ok());
  return r;
}

}  // namespace

TEST_CASE("fuse_conv: the fused Conv's activation and Conv attributes are typed") {
  SECTION("Relu: min 0, max +inf; the Conv's pads and group carried over") {
    auto r = fused(build<float>("fuse_conv_typed_relu.onnx", 4, 4, 2, true,
                                [](graph::model_builder& b, std::string y) { b.output(b.node("Relu", {y})); }));
    REQUIRE(r.ops_of() == list{"onyx.fused.Conv"});
    const auto* a = match<ops::fused::Conv>(r.g().nodes[0]);
    REQUIRE(a);
    CHECK(a->activation.kind == ops::fused::activation_kind::relu);
    CHECK(a->activation.min == 0.0f);
    CHECK(a->activation.max == std::numeric_limits<float>::infinity());
    CHECK(a->pads == ints{1, 1, 1, 1});
    CHECK(a->group == 2);
    CHECK(r.g().nodes[0].op_type == "Conv+Relu");
    CHECK(!match<ops::Conv>(r.g().nodes[0]));  // another op, though both are named Conv
  }
  SECTION("Clip with constant bounds: its bounds") {
    auto r =
        fused(build<float>("fuse_conv_typed_clip.onnx", 3, 4, 1, false, [](graph::model_builder& b, std::string y) {
          auto lo = b.initializer("lo", tensor::scalar(-0.5f)), hi = b.initializer("hi", tensor::scalar(6.0f));
          b.output(b.node("Clip", {y, lo, hi}));
        }));
    REQUIRE(r.ops_of() == list{"onyx.fused.Conv"});
    const auto* a = match<ops::fused::Conv>(r.g().nodes[0]);
    REQUIRE(a);
    CHECK(a->activation.kind == ops::fused::activation_kind::clip);
    CHECK(a->activation.min == -0.5f);
    CHECK(a->activation.max == 6.0f);
  }
  SECTION("Clip with only a max") {
    auto r =
        fused(build<float>("fuse_conv_typed_clip_max.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
          b.output(b.node("Clip", {y, "", b.initializer("hi", tensor::scalar(1.5f))}));
        }));
    const auto* a = match<ops::fused::Conv>(r.g().nodes[0]);
    REQUIRE(a);
    CHECK(a->activation.kind == ops::fused::activation_kind::clip);
    CHECK(a->activation.min == -std::numeric_limits<float>::infinity());
    CHECK(a->activation.max == 1.5f);
  }
  SECTION("a Clip whose bound is computed at run time stays") {
    auto r = fused(
        build<float>("fuse_conv_typed_clip_dynamic.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
          b.output(b.node("Clip", {y, b.input("lo", dtype::float32, {})}));
        }));
    CHECK(r.ops_of() == list{"Conv", "Clip"});
  }
}

TEST_CASE("fuse_conv: BatchNormalization's epsilon comes from its typed attributes") {
  // A large epsilon changes the folded weights visibly: the fused graph must
  // agree with the plain one, which reads epsilon in the BatchNormalization kernel.
  auto path = build<float>("fuse_conv_bn_eps.onnx", 3, 4, 1, true, [](graph::model_builder& b, std::string y) {
    auto scale = constant<float>(b, "scale", {4}, 0.5, 2, 4), beta = constant<float>(b, "beta", {4}, -1, 1, 5);
    auto mean = constant<float>(b, "mean", {4}, -1, 1, 6), var = constant<float>(b, "var", {4}, 0.1, 2, 7);
    b.output(b.node("BatchNormalization", {y, scale, beta, mean, var}, {{"epsilon", 0.5f}}));
  });
  CHECK(compare<float>(path, 3, 1e-4) == list{"Conv"});
}

TEST_CASE("fuse_conv: a fused Conv read from node attributes parses its activation") {
  using attrs = ops::fused::Conv::attributes;
  auto parsed =
      ops::fused::Conv::parse({attribute{"group", std::int64_t{2}}, attribute{"activation", std::string("Clip")},
                               attribute{"activation_min", 0.0f}, attribute{"activation_max", 6.0f}});
  REQUIRE(parsed.ok());
  const attrs& a = *parsed;
  CHECK(a.group == 2);
  CHECK(a.activation.kind == ops::fused::activation_kind::clip);
  CHECK(a.activation.max == 6.0f);
  auto relu = ops::fused::Conv::parse({attribute{"activation", std::string("Relu")}});
  REQUIRE(relu.ok());
  CHECK(relu->activation.kind == ops::fused::activation_kind::relu);
  CHECK(relu->activation.min == 0.0f);
  CHECK(ops::fused::Conv::parse({}).value().activation.kind == ops::fused::activation_kind::none);
  auto bad = ops::fused::Conv::parse({attribute{"activation", std::string("Tanh")}});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("Tanh") != std::string::npos);
}
