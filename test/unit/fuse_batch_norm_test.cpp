// graph::passes::fuse_batch_norm: per-channel Mul/Div/Add/Sub after a
// BatchNormalization fold into its scale and B, and fuse_batch_norm_activation
// takes a following Relu or Clip into onyx.fused.BatchNormalization; the
// optimized graph holds the expected nodes and gives the unoptimized graph's
// outputs (to rtol 1e-5 in float32: the folded parameters are rounded once).
#include <catch2/catch.hpp>

#include <algorithm>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

using test::random_tensor;
using test::ops_of;

/// x [2, 5, 6, 7] -> BatchNormalization -> `then` -> the output; runs it
/// optimized and not, compares, returns the optimized op types.
template <class Then>
std::vector<std::string> run(const std::string& file, Then then) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2, 5, 6, 7});
  auto bn = b.node("BatchNormalization",
                   {x, b.initializer("s", random_tensor({5}, 0.5, 2, 1)), b.initializer("b", random_tensor({5}, -1, 1, 2)),
                    b.initializer("m", random_tensor({5}, -1, 1, 3)), b.initializer("v", random_tensor({5}, 0.5, 2, 4))},
                   {{"epsilon", 1e-3f}});
  b.output(then(b, bn));
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  session fused(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  auto in = random_tensor({2, 5, 6, 7}, -2, 2, 5);
  auto got = fused.run({{"x", in}});
  auto want = plain.run({{"x", in}});
  auto e = want[0].as_tensor().values<float>();
  test::require_close(got[0].as_tensor(), std::vector<float>(e.begin(), e.end()), 1e-5, 1e-5);
  return ops_of(fused);
}

using list = std::vector<std::string>;

}  // namespace

TEST_CASE("fuse_batch_norm folds per-channel Mul, Add, Div, Sub", "[passes][fuse_batch_norm]") {
  // DenseNet's pattern: BN -> Mul [C,1,1] -> Add [C,1,1] -> Relu.
  CHECK(run("fbn_mul_add.onnx", [](graph::model_builder& b, const std::string& v) {
          auto m = b.node("Mul", {v, b.initializer("c1", random_tensor({5, 1, 1}, 0.5, 2, 6))});
          auto a = b.node("Add", {m, b.initializer("c2", random_tensor({5, 1, 1}, -1, 1, 7))});
          return b.node("Relu", {a});
        }) == list{"onyx.fused.BatchNormalization"});
  // Div by a scalar, and c - y (Sub with the BN output second).
  CHECK(run("fbn_div_sub.onnx", [](graph::model_builder& b, const std::string& v) {
          auto d = b.node("Div", {v, b.initializer("c3", random_tensor({1}, 1.5, 2, 8))});
          return b.node("Sub", {b.initializer("c4", random_tensor({1, 5, 1, 1}, -1, 1, 9)), d});
        }) == list{"BatchNormalization"});
}

TEST_CASE("fuse_batch_norm leaves what it cannot fold", "[passes][fuse_batch_norm]") {
  // A constant that broadcasts along W, not per channel.
  CHECK(run("fbn_not_channel.onnx", [](graph::model_builder& b, const std::string& v) {
          return b.node("Mul", {v, b.initializer("c5", random_tensor({7}, 0.5, 2, 10))});
        }) == list{"BatchNormalization", "Mul"});
  // The BN output also read by another node: nothing is absorbed.
  CHECK(run("fbn_two_readers.onnx", [](graph::model_builder& b, const std::string& v) {
          auto m = b.node("Mul", {v, b.initializer("c6", random_tensor({5, 1, 1}, 0.5, 2, 11))});
          return b.node("Add", {m, v});
        }) == list{"BatchNormalization", "onyx.fused.Elementwise"});  // Mul and Add, by fuse_elementwise
}

TEST_CASE("fuse_batch_norm_activation takes the Relu or Clip after a BatchNormalization",
          "[passes][fuse_batch_norm]") {
  CHECK(run("fbn_relu.onnx", [](graph::model_builder& b, const std::string& v) { return b.node("Relu", {v}); }) ==
        list{"onyx.fused.BatchNormalization"});
  CHECK(run("fbn_clip.onnx", [](graph::model_builder& b, const std::string& v) {
          return b.node("Clip", {v, b.initializer("lo", tensor::from<float>({-0.25f}, {})),
                                 b.initializer("hi", tensor::from<float>({0.75f}, {}))});
        }) == list{"onyx.fused.BatchNormalization"});
  // A Clip with a bound computed at run time stays.
  CHECK(run("fbn_clip_dynamic.onnx", [](graph::model_builder& b, const std::string& v) {
          auto hi = b.node("ReduceMax", {v}, {{"keepdims", std::int64_t{0}}});
          return b.node("Clip", {v, b.initializer("lo2", tensor::from<float>({-0.25f}, {})), hi});
        }) == list{"BatchNormalization", "ReduceMax", "Clip"});
  // The normalized value read by a second node: the clamp stays apart.
  CHECK(run("fbn_relu_two_readers.onnx", [](graph::model_builder& b, const std::string& v) {
          return b.node("Add", {b.node("Relu", {v}), v});
        }) == list{"BatchNormalization", "onyx.fused.Elementwise"});
}

TEST_CASE("onyx.fused.BatchNormalization in a model: bad parameters, inputs and attributes are errors",
          "[passes][fuse_batch_norm]") {
  // x [1, 3, 4, 4]; `scale_len` scale values for 3 channels.
  const auto build = [](const std::string& file, std::int64_t scale_len, const std::string& activation) {
    graph::model_builder b{17};
    b.import("onyx.fused", 1);
    auto x = b.input("x", dtype::float32, {1, 3, 4, 4});
    b.output(b.node({"onyx.fused", "BatchNormalization"},
                    {x, b.initializer("s", random_tensor({scale_len}, 0.5, 2, 1)),
                     b.initializer("b", random_tensor({3}, -1, 1, 2)), b.initializer("m", random_tensor({3}, -1, 1, 3)),
                     b.initializer("v", random_tensor({3}, 0.5, 2, 4))},
                    {{"activation", activation}}));
    auto path = test::temp_path(file);
    REQUIRE(b.save(path).ok());
    return path;
  };
  const auto fails = [](const std::string& path) -> std::string {
    try {
      session s(path, {.threads = 1});
      s.run({{"x", random_tensor({1, 3, 4, 4}, -1, 1, 5)}});
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const auto has = [](const std::string& message, const std::string& part) {
    INFO(message);
    return message.find(part) != std::string::npos;
  };
  // Named node, op and what was expected.
  const std::string bad_scale = fails(build("fbn_bad_scale.onnx", 4, "Relu"));
  CHECK(has(bad_scale, "BatchNormalization 'n0'"));
  CHECK(has(bad_scale, "scale must have shape [3], got [4]"));
  const std::string bad_activation = fails(build("fbn_bad_act.onnx", 3, "Tanh"));
  CHECK(has(bad_activation, "BatchNormalization 'n0'"));
  CHECK(has(bad_activation, "activation 'Tanh' is not"));
  // Inputs the model does not declare.
  session model(build("fbn_good.onnx", 3, "Relu"), {.threads = 1});
  const auto run_fails = [&](const std::string& name, const tensor& t) -> std::string {
    try {
      model.run({{name, t}});
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  CHECK(has(run_fails("y", random_tensor({1, 3, 4, 4}, -1, 1, 5)), "the model has no input 'y'"));
  CHECK(has(run_fails("x", random_tensor({1, 4, 4, 4}, -1, 1, 5)), "has shape [1,4,4,4], expected [1,3,4,4]"));
  CHECK(has(run_fails("x", random_tensor<double>({1, 3, 4, 4}, -1, 1, 5)), "has dtype float64, expected float32"));
  // And the model itself runs: Relu's clamp applied.
  const auto out = model.run({{"x", random_tensor({1, 3, 4, 4}, -3, 3, 6)}});
  const auto y = out[0].as_tensor().values<float>();
  CHECK(*std::min_element(y.begin(), y.end()) >= 0.0f);
}
