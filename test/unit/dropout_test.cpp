// Dropout at inference: output equals data, mask all true, in each arity.
#include <catch2/catch.hpp>
#include <filesystem>

#include "kernels/cpu/dropout.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/elementwise_ops.hpp"
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

TEST_CASE("Dropout rejects training and non-float data", "[elementwise]") {
  auto xt = tensor::from(std::vector<float>(3, 1.0f), {3});
  auto r = test::run_op<ops::Dropout>({xt, tensor::scalar(0.5f), tensor::scalar(true)});
  REQUIRE(!r.ok());
  CHECK(r.error().code() == errc::unsupported);
  auto ok0 = test::run_op<ops::Dropout>({xt, tensor::scalar(0.0f), tensor::scalar(true)});
  CHECK(ok0.ok());
  auto s = test::run_op<ops::Dropout>({tensor::from(std::vector<std::int32_t>(3, 1), {3})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("type constraint T") != std::string::npos);
  auto t = test::run_op<ops::Dropout>({xt, tensor::from(std::vector<float>{0.1f, 0.2f}, {2})});
  REQUIRE(!t.ok());
  CHECK(t.error().message().find("scalar") != std::string::npos);
}

TEST_CASE("Dropout fails when training_mode is true at run time", "[elementwise]") {
  // ratio and training_mode are graph inputs, so only the kernel sees them.
  graph::model_builder m{13};
  auto x = m.input("x", dtype::float32, {3});
  auto ratio = m.input("ratio", dtype::float32, {});
  auto training = m.input("training", dtype::boolean, {});
  m.output(m.node("Dropout", {x, ratio, training}));
  auto path = onyx::test::temp_path("onyx_dropout_training_test.onnx");
  REQUIRE(m.save(path).ok());
  basic_session<registry<op_list<ops::Dropout>, backend_list<cpu>>> s(path, {.threads = 1});
  auto xt = tensor::from(std::vector<float>{1, 2, 3}, {3});
  CHECK_THROWS_WITH(s.run({{"x", xt}, {"ratio", tensor::scalar(0.25f)}, {"training", tensor::scalar(true)}}),
                    Catch::Contains("training_mode = true with ratio 0.25"));
  auto same = s.run({{"x", xt}, {"ratio", tensor::scalar(0.0f)}, {"training", tensor::scalar(true)}});
  test::require_close(same.at(0).as_tensor(), std::vector<float>{1, 2, 3}, 0, 0);
  auto inference = s.run({{"x", xt}, {"ratio", tensor::scalar(0.25f)}, {"training", tensor::scalar(false)}});
  test::require_close(inference.at(0).as_tensor(), std::vector<float>{1, 2, 3}, 0, 0);
}
