// The random generator ops: RandomUniform, RandomNormal, RandomUniformLike,
// RandomNormalLike, Bernoulli, Multinomial. Their values come from a
// generator, so each is checked by shape, dtype, range, seeded run-to-run
// equality, and sample statistics against the distribution the spec names
// (bounds of 5 standard errors, so a correct kernel fails about once in
// 3.5 million runs; the seeds are fixed, so in practice never). And: a
// random op in a model is not folded or propagated (two unseeded runs
// differ).
#include <catch2/catch.hpp>

#include <cmath>

#include "kernels/cpu/random.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/elementwise_ops.hpp"
#include "onyx/ops/random_ops.hpp"
#include "onyx/registry/prebuilt.hpp"
#include "onyx/runtime/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using onyx::test::attr;

namespace {

template <class T> std::vector<double> as_doubles(const tensor& t) {
  std::vector<double> v;
  for (auto x : t.values<T>()) v.push_back(static_cast<double>(load(x)));
  return v;
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

TEST_CASE("RandomUniform: shape, dtype, range, seed, distribution", "[random]") {
  const std::int64_t n = 20000;
  auto r = test::run_op<ops::RandomUniform>(
      {}, {attr("shape", std::vector<std::int64_t>{n / 4, 4}), attr("low", -2.0f), attr("high", 6.0f),
           attr("seed", 3.0f)});
  REQUIRE(r.ok());
  const tensor& y = (*r)[0];
  REQUIRE(y.type() == dtype::float32);
  REQUIRE(y.shape() == extents{n / 4, 4});
  auto v = as_doubles<float>(y);
  for (double x : v) REQUIRE((x >= -2 && x < 6));
  // Uniform on [-2, 6): mean 2, sd 8 / sqrt(12) = 2.309; standard error of the mean 0.0163.
  CHECK(std::abs(mean_of(v) - 2.0) < 5 * 0.0163);
  CHECK(std::abs(sd_of(v) - 2.309) < 0.05);
  auto again = test::run_op<ops::RandomUniform>(
      {}, {attr("shape", std::vector<std::int64_t>{n / 4, 4}), attr("low", -2.0f), attr("high", 6.0f),
           attr("seed", 3.0f)});
  REQUIRE(again.ok());
  CHECK(as_doubles<float>((*again)[0]) == v);
  auto other_seed = test::run_op<ops::RandomUniform>(
      {}, {attr("shape", std::vector<std::int64_t>{n / 4, 4}), attr("low", -2.0f), attr("high", 6.0f),
           attr("seed", 4.0f)});
  CHECK(as_doubles<float>((*other_seed)[0]) != v);

  SECTION("float16 and float64 by dtype") {
    for (dtype t : {dtype::float16, dtype::float64}) {
      auto h = test::run_op<ops::RandomUniform>(
          {}, {attr("shape", std::vector<std::int64_t>{1000}), attr("dtype", static_cast<std::int64_t>(t)),
               attr("seed", 1.0f)});
      REQUIRE(h.ok());
      REQUIRE((*h)[0].type() == t);
      auto hv = t == dtype::float16 ? as_doubles<float16_t>((*h)[0]) : as_doubles<double>((*h)[0]);
      for (double x : hv) REQUIRE((x >= 0 && x < 1));
    }
  }
  SECTION("bad attributes name what is wrong") {
    auto bad = test::run_op<ops::RandomUniform>({}, {attr("shape", std::vector<std::int64_t>{2}),
                                                     attr("dtype", static_cast<std::int64_t>(dtype::int32))});
    REQUIRE(!bad.ok());
    CHECK(bad.error().message().find("dtype 6") != std::string::npos);
    auto neg = test::run_op<ops::RandomUniform>({}, {attr("shape", std::vector<std::int64_t>{-1})});
    REQUIRE(!neg.ok());
    CHECK(neg.error().message().find("negative") != std::string::npos);
  }
}

TEST_CASE("RandomNormal and RandomNormalLike: mean and scale", "[random]") {
  const std::int64_t n = 20000;
  auto r = test::run_op<ops::RandomNormal>(
      {}, {attr("shape", std::vector<std::int64_t>{n}), attr("mean", 5.0f), attr("scale", 2.0f), attr("seed", 9.0f)});
  REQUIRE(r.ok());
  auto v = as_doubles<float>((*r)[0]);
  // Standard error of the mean 2 / sqrt(n) = 0.0141; of the sd about 0.01.
  CHECK(std::abs(mean_of(v) - 5.0) < 5 * 0.0141);
  CHECK(std::abs(sd_of(v) - 2.0) < 5 * 0.01);
  // Like: shaped like an int64 input, typed by dtype.
  auto like = test::run_op<ops::RandomNormalLike>(
      {tensor::from(std::vector<std::int64_t>(6, 0), {2, 3})},
      {attr("dtype", static_cast<std::int64_t>(dtype::float64)), attr("seed", 2.0f)});
  REQUIRE(like.ok());
  REQUIRE((*like)[0].type() == dtype::float64);
  REQUIRE((*like)[0].shape() == extents{2, 3});
  auto no_dtype = test::run_op<ops::RandomNormalLike>({tensor::from(std::vector<std::int64_t>(6, 0), {2, 3})});
  REQUIRE(!no_dtype.ok());
  CHECK(no_dtype.error().message().find("set dtype") != std::string::npos);
}

TEST_CASE("RandomUniformLike: the input's shape and type", "[random]") {
  auto r = test::run_op<ops::RandomUniformLike>({tensor::zeros(dtype::float64, {3, 5, 7})},
                                                {attr("low", 10.0f), attr("high", 11.0f)});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::float64);
  REQUIRE((*r)[0].shape() == extents{3, 5, 7});
  for (double x : as_doubles<double>((*r)[0])) REQUIRE((x >= 10 && x < 11));
}

TEST_CASE("Bernoulli: 0/1 draws with the input's probabilities", "[random]") {
  const std::int64_t n = 20000;
  std::vector<float> p(n);
  for (std::int64_t i = 0; i < n; ++i) p[i] = i % 4 == 0 ? 0.0f : i % 4 == 1 ? 1.0f : 0.3f;
  auto r = test::run_op<ops::Bernoulli>({tensor::from(p, {n})}, {attr("seed", 5.0f)});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::float32);
  auto v = as_doubles<float>((*r)[0]);
  double ones = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    REQUIRE((v[i] == 0 || v[i] == 1));
    if (i % 4 == 0) REQUIRE(v[i] == 0);
    if (i % 4 == 1) REQUIRE(v[i] == 1);
    if (i % 4 >= 2) ones += v[i];
  }
  // 10000 draws at p = 0.3: standard error of the fraction 0.00458.
  CHECK(std::abs(ones / (n / 2) - 0.3) < 5 * 0.00458);
  // dtype: int32 and bool outputs; a seed repeats.
  auto i32 = test::run_op<ops::Bernoulli>({tensor::from(p, {n})},
                                          {attr("dtype", static_cast<std::int64_t>(dtype::int32)), attr("seed", 5.0f)});
  REQUIRE(i32.ok());
  REQUIRE((*i32)[0].type() == dtype::int32);
  auto iv = (*i32)[0].values<std::int32_t>();
  for (std::int64_t i = 0; i < n; ++i) REQUIRE(iv[i] == static_cast<std::int32_t>(v[i]));
  auto b = test::run_op<ops::Bernoulli>({tensor::from(std::vector<double>{0, 1}, {2})},
                                        {attr("dtype", static_cast<std::int64_t>(dtype::boolean))});
  REQUIRE(b.ok());
  CHECK((*b)[0].values<bool>()[0] == false);
  CHECK((*b)[0].values<bool>()[1] == true);
  auto bad = test::run_op<ops::Bernoulli>({tensor::from(std::vector<float>{0.5f, 1.5f}, {2})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("probability 1.5") != std::string::npos);
}

TEST_CASE("Multinomial: class indices drawn by softmax of the row", "[random]") {
  // Row 0: logits {0, log 3, -200} -> P(1) = 0.75, class 2 never (e^-200).
  // Row 1: {0, -200, 0} -> class 1 never.
  const std::int64_t samples = 20000;
  auto x = tensor::from(std::vector<float>{0.0f, std::log(3.0f), -200.0f, 0.0f, -200.0f, 0.0f}, {2, 3});
  auto r = test::run_op<ops::Multinomial>(
      {x}, {attr("sample_size", samples), attr("dtype", static_cast<std::int64_t>(dtype::int64)), attr("seed", 1.0f)});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].type() == dtype::int64);
  REQUIRE((*r)[0].shape() == extents{2, samples});
  auto v = (*r)[0].values<std::int64_t>();
  double ones = 0;
  for (std::int64_t s = 0; s < samples; ++s) {
    REQUIRE((v[s] == 0 || v[s] == 1));
    ones += static_cast<double>(v[s]);
    REQUIRE((v[samples + s] == 0 || v[samples + s] == 2));
  }
  // Standard error of the fraction sqrt(0.75 * 0.25 / 20000) = 0.00306.
  CHECK(std::abs(ones / samples - 0.75) < 5 * 0.00306);
  auto i32 = test::run_op<ops::Multinomial>({x});
  REQUIRE(i32.ok());
  CHECK((*i32)[0].type() == dtype::int32);
  CHECK((*i32)[0].shape() == extents{2, 1});
}

TEST_CASE("Random ops are drawn at run time, not folded at load", "[random]") {
  // RandomUniform (no input) -> Add: nothing may be folded into a constant.
  auto model = [](bool seeded) {
    graph::model_builder m{17};
    auto x = m.input("x", dtype::float32, {64});
    graph::graph_builder::attributes a{{"shape", std::vector<std::int64_t>{64}}};
    if (seeded) a.push_back({"seed", 11.0f});
    m.output(m.node("Add", {x, m.node("RandomUniform", {}, a)}));
    auto path = onyx::test::temp_path(seeded ? "onyx_random_seeded.onnx" : "onyx_random_unseeded.onnx");
    REQUIRE(m.save(path).ok());
    return path;
  };
  using reg = prebuilt_registry<op_list<ops::RandomUniform, ops::Add>, backend_list<cpu>>;
  auto x = tensor::zeros(dtype::float32, {64});
  basic_session<reg> unseeded(model(false), {.threads = 1});
  auto a = unseeded.run({{"x", x}}), b = unseeded.run({{"x", x}});
  auto av = as_doubles<float>(a.at(0).as_tensor()), bv = as_doubles<float>(b.at(0).as_tensor());
  CHECK(av != bv);
  basic_session<reg> seeded(model(true), {.threads = 1});
  auto c = seeded.run({{"x", x}}), d = seeded.run({{"x", x}});
  CHECK(as_doubles<float>(c.at(0).as_tensor()) == as_doubles<float>(d.at(0).as_tensor()));
}
