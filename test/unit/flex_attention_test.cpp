// FlexAttention (ai.onnx.preview) in a session, against a scalar double
// reference written from the spec: GQA with a causal score_mod and a prob_mod,
// an explicit scale, float64 and float16 inputs, and the errors for a
// modifier that changes the type and for q heads that are not a multiple of
// the kv heads.
#include <catch2/catch.hpp>

#include <cmath>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "temp_path.hpp"

using namespace onyx;
using graph::graph_builder;
using graph::model_builder;

namespace {

struct shape_t {
  std::int64_t B, Hq, Hkv, L, S, E, Ev;
};

/// Y = softmax(mod(scale Q K^T)) * prob_scale V, query head h reading K/V
/// head h / (Hq / Hkv); `causal` masks key j > query i with -inf.
std::vector<double> reference(const shape_t& t, const std::vector<double>& q, const std::vector<double>& k,
                              const std::vector<double>& v, double scale, bool causal, double prob_scale) {
  std::vector<double> y(static_cast<std::size_t>(t.B * t.Hq * t.L * t.Ev), 0.0);
  for (std::int64_t b = 0; b < t.B; ++b)
    for (std::int64_t h = 0; h < t.Hq; ++h) {
      const std::int64_t hk = h / (t.Hq / t.Hkv);
      for (std::int64_t i = 0; i < t.L; ++i) {
        std::vector<double> s(static_cast<std::size_t>(t.S));
        double top = -INFINITY;
        for (std::int64_t j = 0; j < t.S; ++j) {
          double dot = 0;
          for (std::int64_t e = 0; e < t.E; ++e)
            dot += q[((b * t.Hq + h) * t.L + i) * t.E + e] * k[((b * t.Hkv + hk) * t.S + j) * t.E + e];
          s[j] = causal && j > i ? -INFINITY : dot * scale;
          top = std::max(top, s[j]);
        }
        double sum = 0;
        for (auto& x : s) sum += (x = std::exp(x - top));
        for (std::int64_t j = 0; j < t.S; ++j)
          for (std::int64_t e = 0; e < t.Ev; ++e)
            y[((b * t.Hq + h) * t.L + i) * t.Ev + e] +=
                s[j] / sum * prob_scale * v[((b * t.Hkv + hk) * t.S + j) * t.Ev + e];
      }
    }
  return y;
}

/// A model of one FlexAttention node over inputs Q, K, V of type `t`.
/// `causal`: a score_mod that puts -inf where key > query (Where over a
/// Range/Less mask built from the scores' shape, as exporters write it);
/// `prob_scale` != 1: a prob_mod multiplying by it.
model_builder flex_model(const shape_t& s, dtype t, dtype softmax, bool causal, float prob_scale,
                         graph_builder::attributes extra = {}) {
  model_builder m{23};
  m.import("ai.onnx.preview", 1);
  auto q = m.input("Q", t, {s.B, s.Hq, s.L, s.E});
  auto k = m.input("K", t, {s.B, s.Hkv, s.S, s.E});
  auto v = m.input("V", t, {s.B, s.Hkv, s.S, s.Ev});
  graph_builder::attributes attrs = std::move(extra);
  if (causal) {
    graph_builder g = m.subgraph("score_mod");
    auto scores = g.input("scores", softmax);
    auto shape = g.node("Shape", {scores});
    auto at = [&](std::int64_t i) {
      return g.node("Gather", {shape, g.constant(tensor::scalar(i))}, {{"axis", std::int64_t{0}}});
    };
    auto zero = g.constant(tensor::scalar(std::int64_t{0})), one = g.constant(tensor::scalar(std::int64_t{1}));
    auto rows =
        g.node("Unsqueeze", {g.node("Range", {zero, at(2), one}), g.constant(tensor::from<std::int64_t>({1}, {1}))});
    auto cols = g.node("Range", {zero, at(3), one});
    auto hidden = g.node("Less", {rows, cols});
    tensor ninf = tensor::zeros(softmax, {});
    if (softmax == dtype::float64)
      ninf.data<double>()[0] = -INFINITY;
    else
      ninf.data<float>()[0] = -INFINITY;
    g.output(g.node("Where", {hidden, g.constant(ninf), scores}));
    attrs.push_back({"score_mod", g});
  }
  if (prob_scale != 1.0f) {
    graph_builder g = m.subgraph("prob_mod");
    auto probs = g.input("probs", softmax);
    g.output(g.node("Mul", {probs, g.constant(tensor::scalar(prob_scale))}));
    attrs.push_back({"prob_mod", g});
  }
  m.output(m.node({"ai.onnx.preview", "FlexAttention"}, {q, k, v}, attrs));
  return m;
}

session open(const model_builder& m, const std::string& file) {
  auto path = test::temp_path(file);
  REQUIRE(m.save(path).ok());
  return session(path, {.threads = 2});
}

std::vector<double> as_doubles(const std::vector<float>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("FlexAttention: GQA, causal score_mod, prob_mod, explicit scale", "[flex_attention]") {
  const shape_t s{2, 4, 2, 5, 7, 6, 3};
  auto q = test::random_values<float>(s.B * s.Hq * s.L * s.E, -1, 1, 1);
  auto k = test::random_values<float>(s.B * s.Hkv * s.S * s.E, -1, 1, 2);
  auto v = test::random_values<float>(s.B * s.Hkv * s.S * s.Ev, -1, 1, 3);
  session sess = open(flex_model(s, dtype::float32, dtype::float32, true, 0.5f, {{"scale", 0.3f}}), "flex_gqa.onnx");
  auto out = sess.run({{"Q", tensor::from(q, {s.B, s.Hq, s.L, s.E})},
                       {"K", tensor::from(k, {s.B, s.Hkv, s.S, s.E})},
                       {"V", tensor::from(v, {s.B, s.Hkv, s.S, s.Ev})}});
  const tensor& y = out.at(0).as_tensor();
  REQUIRE(y.shape() == extents{s.B, s.Hq, s.L, s.Ev});
  // The kernel scales Q and K by sqrt(scale) in float32, as the spec does.
  const double root = std::sqrt(0.3f);
  auto ref = reference(s, as_doubles(q), as_doubles(k), as_doubles(v), root * root, true, 0.5);
  test::require_close(y, std::vector<float>(ref.begin(), ref.end()), 1e-5, 1e-6);
}

TEST_CASE("FlexAttention: float64 inputs compute in double, default scale", "[flex_attention]") {
  const shape_t s{1, 3, 3, 4, 9, 5, 4};
  auto q = test::random_values<double>(s.Hq * s.L * s.E, -2, 2, 4);
  auto k = test::random_values<double>(s.Hkv * s.S * s.E, -2, 2, 5);
  auto v = test::random_values<double>(s.Hkv * s.S * s.Ev, -2, 2, 6);
  session sess = open(flex_model(s, dtype::float64, dtype::float64, false, 1.0f), "flex_double.onnx");
  auto out = sess.run({{"Q", tensor::from(q, {s.B, s.Hq, s.L, s.E})},
                       {"K", tensor::from(k, {s.B, s.Hkv, s.S, s.E})},
                       {"V", tensor::from(v, {s.B, s.Hkv, s.S, s.Ev})}});
  // Default scale 1/sqrt(E), taken through float32 and its square root in float32 (the spec's reference).
  const double root = std::sqrt(static_cast<float>(1.0 / std::sqrt(5.0)));
  test::require_close(out.at(0).as_tensor(), reference(s, q, k, v, root * root, false, 1.0), 1e-12, 1e-13);
}

TEST_CASE("FlexAttention: float16 inputs, softmax in float32", "[flex_attention]") {
  const shape_t s{1, 2, 1, 3, 6, 8, 5};
  auto qf = test::random_values<float>(s.Hq * s.L * s.E, -1, 1, 7);
  auto kf = test::random_values<float>(s.Hkv * s.S * s.E, -1, 1, 8);
  auto vf = test::random_values<float>(s.Hkv * s.S * s.Ev, -1, 1, 9);
  auto half = [](const std::vector<float>& x, extents shape) {
    std::vector<float16_t> h(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) h[i] = to_float16(x[i]);
    return tensor::from(h, std::move(shape));
  };
  auto exact = [](const std::vector<float>& x) {  // the values the float16 inputs hold
    std::vector<double> d(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) d[i] = to_float(to_float16(x[i]));
    return d;
  };
  session sess = open(flex_model(s, dtype::float16, dtype::float32, true, 1.0f), "flex_half.onnx");
  auto out = sess.run({{"Q", half(qf, {s.B, s.Hq, s.L, s.E})},
                       {"K", half(kf, {s.B, s.Hkv, s.S, s.E})},
                       {"V", half(vf, {s.B, s.Hkv, s.S, s.Ev})}});
  const tensor& y = out.at(0).as_tensor();
  REQUIRE(y.type() == dtype::float16);
  auto ref = reference(s, exact(qf), exact(kf), exact(vf), 1.0 / std::sqrt(8.0), true, 1.0);
  // float16 rounding of the scaled Q and K, each score and the output: a few ulps of 2^-11.
  std::vector<float> got(static_cast<std::size_t>(y.size()));
  for (std::size_t i = 0; i < got.size(); ++i) got[i] = to_float(y.data<float16_t>()[i]);
  test::require_close(tensor::from(got, y.shape()), std::vector<float>(ref.begin(), ref.end()), 4e-3, 2e-3);
}

TEST_CASE(
    "FlexAttention: a modifier that changes the type, and q heads not a multiple of kv heads, fail naming the node",
    "[flex_attention]") {
  const shape_t s{1, 2, 2, 3, 4, 4, 4};
  model_builder m{23};
  m.import("ai.onnx.preview", 1);
  auto q = m.input("Q", dtype::float32, {s.B, s.Hq, s.L, s.E});
  auto k = m.input("K", dtype::float32, {s.B, s.Hkv, s.S, s.E});
  graph_builder g = m.subgraph("to_double");
  g.output(g.node("Cast", {g.input("scores", dtype::float32)}, {{"to", std::int64_t{11}}}));
  m.output(m.node({"ai.onnx.preview", "FlexAttention"}, {q, k, k}, {{"score_mod", g}}));
  auto path = test::temp_path("flex_bad_mod.onnx");
  REQUIRE(m.save(path).ok());
  auto bad = session::open(path);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("FlexAttention '") &&
                                        Catch::Contains("score_mod returns float64") &&
                                        Catch::Contains("expected float32"));

  // Three query heads over two K/V heads: known only when run (symbolic dims).
  model_builder m2{23};
  m2.import("ai.onnx.preview", 1);
  auto q2 = m2.input("Q", dtype::float32, {1, "H", 3, 4});
  auto k2 = m2.input("K", dtype::float32, {1, "G", 4, 4});
  m2.output(m2.node({"ai.onnx.preview", "FlexAttention"}, {q2, k2, k2}));
  auto sess = open(m2, "flex_bad_heads.onnx");
  std::vector<named_value> feeds{{"Q", tensor::from(test::random_values<float>(36), {1, 3, 3, 4})},
                                 {"K", tensor::from(test::random_values<float>(32), {1, 2, 4, 4})}};
  std::vector<value> outs;
  status r = sess.run(std::span<const named_value>(feeds), outs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.message(), Catch::Contains("FlexAttention '") && Catch::Contains("multiple of kv heads"));
}
