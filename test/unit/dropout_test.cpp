// Dropout at inference (output equals data, mask all true, in each arity)
// and in training mode (dropped or scaled elements, the mask, seeds).
#include <catch2/catch.hpp>
#include <filesystem>

#include "kernels/cpu/dropout.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;

TEST_CASE("Dropout passes data through and reports a full mask", "[elementwise]") {
  auto x = test::random_values<float>(7 * 11, -1, 1, 5);
  auto xt = tensor::from(x, {7, 11});
  SECTION("opset 7 style: ratio attribute, one output") {
    auto r = test::run_op<ops::Dropout>({xt}, {test::attr("ratio", 0.3f)});
    REQUIRE(r.ok());
    test::require_close((*r)[0], x, 0, 0);
  }
  SECTION("opset 12+: ratio and training_mode = false inputs, mask output") {
    auto r = test::run_op<ops::Dropout>({xt, tensor::scalar(0.5f), tensor::scalar(false)}, {}, 2);
    REQUIRE(r.ok());
    test::require_close((*r)[0], x, 0, 0);
    REQUIRE((*r)[1].type() == dtype::boolean);
    REQUIRE((*r)[1].shape() == extents{7, 11});
    for (bool m : (*r)[1].values<bool>()) CHECK(m);
  }
  SECTION("double data") {
    auto d = test::random_values<double>(5, -1, 1, 6);
    auto r = test::run_op<ops::Dropout>({tensor::from(d, {5})}, {}, 2);
    REQUIRE(r.ok());
    test::require_close((*r)[0], d, 0, 0);
  }
}

TEST_CASE("Dropout rejects non-float data and a non-scalar ratio", "[elementwise]") {
  auto xt = tensor::from(std::vector<float>(3, 1.0f), {3});
  auto ok0 = test::run_op<ops::Dropout>({xt, tensor::scalar(0.0f), tensor::scalar(true)});
  CHECK(ok0.ok());
  auto s = test::run_op<ops::Dropout>({tensor::from(std::vector<std::int32_t>(3, 1), {3})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("type constraint T") != std::string::npos);
  auto t = test::run_op<ops::Dropout>({xt, tensor::from(std::vector<float>{0.1f, 0.2f}, {2})});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("scalar") != std::string::npos);
  auto one = test::run_op<ops::Dropout>({xt, tensor::scalar(1.0f), tensor::scalar(true)});
  REQUIRE(!one.ok());
  CHECK(one.error().message().find("ratio in [0, 1)") != std::string::npos);
}

namespace {
/// Checks one training-mode result: each element dropped (0, mask false) or
/// kept and scaled by 1 / (1 - ratio) (mask true); returns the kept count.
std::int64_t check_training(const tensor& y, const tensor& mask, const std::vector<float>& x, float ratio) {
  REQUIRE(y.shape() == mask.shape());
  REQUIRE(mask.type() == dtype::boolean);
  auto yv = y.values<float>();
  auto mv = mask.values<bool>();
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (mv[i]) {
      ++kept;
      REQUIRE(yv[i] == Approx(x[i] / (1 - ratio)).epsilon(1e-6));
    } else {
      REQUIRE(yv[i] == 0.0f);
    }
  }
  return kept;
}
}  // namespace

TEST_CASE("Dropout in training mode drops with probability ratio and scales the rest", "[elementwise]") {
  // ratio, training_mode and the seed through a model, run twice.
  const std::int64_t n = 20000;
  auto x = test::random_values<float>(n, 0.5, 2, 3);  // no zeros: a kept element is never 0
  auto xt = tensor::from(x, {n});
  auto make = [&](bool seeded) {
    graph::model_builder m{13};
    auto in = m.input("x", dtype::float32, {n});
    auto ratio = m.input("ratio", dtype::float32, {});
    auto training = m.input("training", dtype::boolean, {});
    graph::graph_builder::attributes attrs;
    if (seeded) attrs.push_back({"seed", std::int64_t{7}});
    auto outs = m.node("Dropout", {in, ratio, training}, attrs, 2);
    m.output(outs[0]);
    m.output(outs[1]);
    auto path = onyx::test::temp_path(seeded ? "onyx_dropout_seeded.onnx" : "onyx_dropout_unseeded.onnx");
    REQUIRE(m.save(path).ok());
    return path;
  };
  using reg = prebuilt_registry<op_list<ops::Dropout>, backend_list<cpu>>;
  basic_session<reg> seeded(make(true), {.threads = 1});
  for (float ratio : {0.25f, 0.5f}) {
    auto a = seeded.run({{"x", xt}, {"ratio", tensor::scalar(ratio)}, {"training", tensor::scalar(true)}});
    const std::int64_t kept = check_training(a.at(0).as_tensor(), a.at(1).as_tensor(), x, ratio);
    // Kept ~ Binomial(n, 1 - ratio): sd <= 71 here; 5 sd either side.
    CHECK(std::abs(static_cast<double>(kept) - n * (1.0 - ratio)) < 5 * 71);
    // A seed: the same mask on every run.
    auto b = seeded.run({{"x", xt}, {"ratio", tensor::scalar(ratio)}, {"training", tensor::scalar(true)}});
    auto ma = a.at(1).as_tensor().values<bool>(), mb = b.at(1).as_tensor().values<bool>();
    CHECK(std::equal(ma.begin(), ma.end(), mb.begin()));
  }
  // No seed: each run draws anew (two equal masks of 20000 have probability 2^-20000).
  basic_session<reg> unseeded(make(false), {.threads = 1});
  auto a = unseeded.run({{"x", xt}, {"ratio", tensor::scalar(0.5f)}, {"training", tensor::scalar(true)}});
  auto b = unseeded.run({{"x", xt}, {"ratio", tensor::scalar(0.5f)}, {"training", tensor::scalar(true)}});
  check_training(a.at(0).as_tensor(), a.at(1).as_tensor(), x, 0.5f);
  auto ma = a.at(1).as_tensor().values<bool>(), mb = b.at(1).as_tensor().values<bool>();
  CHECK(!std::equal(ma.begin(), ma.end(), mb.begin()));
  // Training off: the identity, mask all true.
  auto inference = seeded.run({{"x", xt}, {"ratio", tensor::scalar(0.5f)}, {"training", tensor::scalar(false)}});
  CHECK(check_training(inference.at(0).as_tensor(), inference.at(1).as_tensor(), x, 0.0f) == n);
}
