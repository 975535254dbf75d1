// The transformer fusions: fuse_layer_norm, fuse_gelu, fuse_matmul (and
// fuse_attention). Each test builds the pattern as torch.onnx.export writes
// it, checks the rewritten graph (which ops are left, their typed
// attributes) and that a session with optimization gives the outputs of one
// without it; and that the pattern is left alone when an intermediate value
// has another reader.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "kernels/cpu/mat_mul.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using list = std::vector<std::string>;
using ints = std::vector<std::int64_t>;
using test::ops_of;
using test::random_tensor;
using str = std::string;

str scalar(graph::model_builder& b, float v) { return b.constant(tensor::scalar(v)); }

/// Runs `path` with and without optimization on inputs `feeds` and returns
/// the optimized session's op types; outputs must agree within 1e-5.
list compare(const std::filesystem::path& path, const std::vector<std::pair<std::string, tensor>>& feeds) {
  session fused(path, {.threads = 1});
  session plain(path, {.threads = 1, .optimize = false});
  std::vector<named_value> in;
  for (const auto& [n, t] : feeds) in.push_back({n, value(t)});
  auto want = plain.run(in);
  auto got = fused.run(in);
  REQUIRE(want.size() == got.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    auto e = want[i].as_tensor().values<float>();
    test::require_close(got[i].as_tensor(), std::vector<float>(e.begin(), e.end()), 1e-5, 1e-5);
  }
  return ops_of(fused);
}

/// Decomposed LayerNorm of x [2, 5, 16] as torch exports it below opset 17.
std::filesystem::path layer_norm_model(const std::string& file, bool affine, bool square_by_mul, bool extra_reader) {
  graph::model_builder b{14};
  auto x = b.input("x", dtype::float32, {2, 5, 16});
  auto axes = ints{-1};
  auto mean = b.node("ReduceMean", {x}, {{"axes", axes}, {"keepdims", 1}});
  auto d = b.node("Sub", {x, mean});
  auto sq = square_by_mul ? b.node("Mul", {d, d}) : b.node("Pow", {d, scalar(b, 2.0f)});
  auto var = b.node("ReduceMean", {sq}, {{"axes", axes}, {"keepdims", 1}});
  auto y = b.node("Div", {d, b.node("Sqrt", {b.node("Add", {var, scalar(b, 1e-5f)})})});
  if (affine) {
    y = b.node("Mul", {y, b.initializer("gamma", random_tensor({16}, 0.5, 1.5, 7))});
    y = b.node("Add", {y, b.initializer("beta", random_tensor({1, 16}, -1, 1, 8))});
  }
  b.output(y);
  if (extra_reader) b.output(var);  // the variance is read outside the pattern
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("fuse_layer_norm: the decomposed LayerNorm becomes LayerNormalization", "[passes]") {
  const std::vector<std::pair<std::string, tensor>> feeds{{"x", random_tensor({2, 5, 16}, -3, 5, 1)}};
  CHECK(compare(layer_norm_model("ln_affine.onnx", true, false, false), feeds) == list{"LayerNormalization"});
  CHECK(compare(layer_norm_model("ln_plain.onnx", false, true, false), feeds) == list{"LayerNormalization"});
  // The variance has a second reader: nothing is fused.
  CHECK(compare(layer_norm_model("ln_shared.onnx", true, false, true), feeds).size() == 9);

  auto r = test::infer_model(layer_norm_model("ln_attrs.onnx", true, false, false));
  REQUIRE(graph::passes::fuse_layer_norm(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"LayerNormalization"});
  const auto* a = graph::passes::match<ops::LayerNormalization>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->axis == -1);
  CHECK(a->epsilon == 1e-5f);
  CHECK(r.g().nodes[0].inputs.size() == 3);
}

TEST_CASE("fuse_gelu: the erf and tanh forms become Gelu", "[passes]") {
  const std::vector<std::pair<std::string, tensor>> feeds{{"x", random_tensor({3, 40}, -6, 6, 2)}};
  auto build = [](const std::string& file, int form) {
    graph::model_builder b{14};
    auto x = b.input("x", dtype::float32, {3, 40});
    str y;
    if (form == 0) {  // x * (erf(x / sqrt 2) + 1) * 0.5
      auto e = b.node("Erf", {b.node("Div", {x, scalar(b, 1.4142135381698608f)})});
      y = b.node("Mul", {b.node("Mul", {x, b.node("Add", {e, scalar(b, 1.0f)})}), scalar(b, 0.5f)});
    } else if (form == 1) {  // (0.5 * x) * (1 + erf(x * (1 / sqrt 2)))
      auto e = b.node("Erf", {b.node("Mul", {scalar(b, 0.70710677f), x})});
      y = b.node("Mul", {b.node("Mul", {scalar(b, 0.5f), x}), b.node("Add", {scalar(b, 1.0f), e})});
    } else {  // GPT-2's gelu_new
      auto cube = b.node("Mul", {scalar(b, 0.044715f), b.node("Pow", {x, scalar(b, 3.0f)})});
      auto inner = b.node("Mul", {scalar(b, 0.7978845834732056f), b.node("Add", {x, cube})});
      y = b.node("Mul", {b.node("Mul", {scalar(b, 0.5f), x}), b.node("Add", {scalar(b, 1.0f), b.node("Tanh", {inner})})});
    }
    b.output(y);
    auto path = test::temp_path(file);
    REQUIRE(b.save(path).ok());
    return path;
  };
  CHECK(compare(build("gelu_erf.onnx", 0), feeds) == list{"Gelu"});
  CHECK(compare(build("gelu_erf_half_first.onnx", 1), feeds) == list{"Gelu"});
  CHECK(compare(build("gelu_tanh.onnx", 2), feeds) == list{"Gelu"});

  auto r = test::infer_model(build("gelu_tanh_attrs.onnx", 2));
  REQUIRE(graph::passes::fuse_gelu(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"Gelu"});
  const auto* a = graph::passes::match<ops::Gelu>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->approximate == "tanh");
  CHECK(r.g().nodes[0].op_type == "Gelu(tanh)");
}

TEST_CASE("fuse_gelu: a wrong constant leaves the ops as they are", "[passes]") {
  graph::model_builder b{14};
  auto x = b.input("x", dtype::float32, {4});
  auto e = b.node("Erf", {b.node("Div", {x, scalar(b, 1.5f)})});
  b.output(b.node("Mul", {b.node("Mul", {x, b.node("Add", {e, scalar(b, 1.0f)})}), scalar(b, 0.5f)}));
  auto path = test::temp_path("gelu_not.onnx");
  REQUIRE(b.save(path).ok());
  CHECK(compare(path, {{"x", random_tensor({4}, -2, 2, 3)}}) == list{"Div", "Erf", "Add", "Mul", "Mul"});
}

TEST_CASE("fuse_matmul: MatMul + bias (+ Gelu) on a [B, S, K] input becomes onyx.fused.MatMul", "[passes]") {
  auto build = [](const std::string& file, bool bias, bool gelu, bool shared) {
    graph::model_builder b{20};
    auto x = b.input("x", dtype::float32, {2, 7, 24});
    auto y = b.node("MatMul", {x, b.initializer("w", random_tensor({24, 40}, -0.3, 0.3, 4))});
    if (shared) b.output(y);
    if (bias) y = b.node("Add", {b.initializer("bias", random_tensor({40}, -1, 1, 5)), y});
    if (gelu) y = b.node("Gelu", {y});
    b.output(y);
    auto path = test::temp_path(file);
    REQUIRE(b.save(path).ok());
    return path;
  };
  const std::vector<std::pair<std::string, tensor>> feeds{{"x", random_tensor({2, 7, 24}, -2, 2, 6)}};
  CHECK(compare(build("mm_bias.onnx", true, false, false), feeds) == list{"onyx.fused.MatMul"});
  CHECK(compare(build("mm_bias_gelu.onnx", true, true, false), feeds) == list{"onyx.fused.MatMul"});
  CHECK(compare(build("mm_gelu.onnx", false, true, false), feeds) == list{"onyx.fused.MatMul"});
  CHECK(compare(build("mm_shared.onnx", true, true, true), feeds) == list{"MatMul", "Add", "Gelu"});

  auto r = test::infer_model(build("mm_attrs.onnx", true, true, false));
  REQUIRE(graph::passes::fuse_matmul(r.g(), r.st, r.ops).ok());
  REQUIRE(r.g().nodes.size() == 1);
  const auto* a = graph::passes::match<ops::fused::MatMul>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->then == ops::fused::MatMul::function::gelu);
  CHECK(r.g().nodes[0].inputs.size() == 3);
  CHECK(r.g().nodes[0].op_type == "MatMul+Add+Gelu");
}

TEST_CASE("fused::MatMul against a direct product, bias and GELU", "[mat_mul]") {
  const std::int64_t M = 37, K = 53, N = 45;  // not multiples of any tile
  auto a = test::random_values<float>(M * K, -1, 1, 11);
  auto w = test::random_values<float>(K * N, -1, 1, 12);
  auto bias = test::random_values<float>(N, -1, 1, 13);
  for (const char* act : {"", "Gelu", "GeluTanh"}) {
    std::vector<attribute> attrs;
    if (*act) attrs.push_back(attribute{"activation", std::string(act)});
    auto r = test::run_op<ops::fused::MatMul>(
        {tensor::from(a, {1, M, K}), tensor::from(w, {K, N}), tensor::from(bias, {N})}, attrs);
    INFO((r.ok() ? std::string() : r.error().message()));
    REQUIRE(r.ok());
    std::vector<float> want(M * N);
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        double s = bias[j];
        for (std::int64_t k = 0; k < K; ++k) s += static_cast<double>(a[i * K + k]) * w[k * N + j];
        if (act == std::string("Gelu")) s = 0.5 * s * (1 + std::erf(s / std::sqrt(2.0)));
        if (act == std::string("GeluTanh"))
          s = 0.5 * s * (1 + std::tanh(std::sqrt(2 / M_PI) * (s + 0.044715 * s * s * s)));
        want[i * N + j] = static_cast<float>(s);
      }
    CHECK((*r)[0].shape() == extents{1, M, N});
    test::require_close((*r)[0], want, 1e-4, 1e-5);
  }
  auto bad = test::run_op<ops::fused::MatMul>({tensor::from(a, {M, K}), tensor::from(w, {K, N})},
                                              {attribute{"activation", std::string("Swish")}});
  CHECK(!bad.ok());
}

TEST_CASE("fuse_attention: BERT's head split, scaled masked softmax and merge become Attention", "[passes]") {
  // Q, K, V [1, 6, 8] with 2 heads of 4; the head split's shape computed
  // from Shape / Gather / Concat as torch exports `view`.
  auto build = [](const std::string& file, bool masked, bool shared) {
    graph::model_builder b{14};
    auto q = b.input("q", dtype::float32, {"batch", "seq", 8});
    auto k = b.input("k", dtype::float32, {"batch", "seq", 8});
    auto v = b.input("v", dtype::float32, {"batch", "seq", 8});
    auto dim = [&](const str& x, std::int64_t i) {
      auto g = b.node("Gather", {b.node("Shape", {x}), b.constant(tensor::scalar<std::int64_t>(i))}, {{"axis", 0}});
      return b.node("Unsqueeze", {g, b.constant(tensor::from(ints{0}, {1}))});
    };
    auto heads = [&](const str& x, const ints& perm) {
      auto shape = b.node("Concat", {dim(x, 0), dim(x, 1), b.constant(tensor::from(ints{2, 4}, {2}))}, {{"axis", 0}});
      return b.node("Transpose", {b.node("Reshape", {x, shape})}, {{"perm", perm}});
    };
    auto s = b.node("Div", {b.node("MatMul", {heads(q, {0, 2, 1, 3}), heads(k, {0, 2, 3, 1})}), scalar(b, 2.0f)});
    if (masked) s = b.node("Add", {s, b.input("mask", dtype::float32, {"batch", 1, 1, "seq"})});
    auto p = b.node("Softmax", {s}, {{"axis", -1}});
    auto ctx = b.node("Transpose", {b.node("MatMul", {p, heads(v, {0, 2, 1, 3})})}, {{"perm", ints{0, 2, 1, 3}}});
    auto shape = b.node("Concat", {dim(ctx, 0), dim(ctx, 1), b.constant(tensor::from(ints{8}, {1}))}, {{"axis", 0}});
    b.output(b.node("Reshape", {ctx, shape}));
    if (shared) b.output(p);
    auto path = test::temp_path(file);
    REQUIRE(b.save(path).ok());
    return path;
  };
  std::vector<float> mask{0, 0, 0, -1e30f, 0, -3.4e38f};
  const std::vector<std::pair<std::string, tensor>> feeds{{"q", random_tensor({1, 6, 8}, -2, 2, 21)},
                                                          {"k", random_tensor({1, 6, 8}, -2, 2, 22)},
                                                          {"v", random_tensor({1, 6, 8}, -2, 2, 23)},
                                                          {"mask", tensor::from(mask, {1, 1, 1, 6})}};
  CHECK(compare(build("attn_masked.onnx", true, false), feeds) == list{"Attention"});
  CHECK(compare(build("attn_plain.onnx", false, false), {feeds[0], feeds[1], feeds[2]}) == list{"Attention"});
  // The probabilities are an output too: nothing is fused.
  auto kept = compare(build("attn_shared.onnx", true, true), feeds);
  CHECK(std::find(kept.begin(), kept.end(), "Softmax") != kept.end());

  auto r = test::infer_model(build("attn_attrs.onnx", true, false));
  REQUIRE(graph::passes::fuse_attention(r.g(), r.st, r.ops).ok());
  graph::passes::remove_dead_nodes(r.g(), r.st);
  REQUIRE(r.ops_of() == list{"Attention"});
  const auto* a = graph::passes::match<ops::Attention>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->q_num_heads == 2);
  CHECK(a->kv_num_heads == 2);
  CHECK(a->scale == 0.5f);
  CHECK(r.g().nodes[0].inputs.size() == 4);
}

TEST_CASE("fuse_rms_norm: the decomposed RMSNorm becomes RMSNormalization", "[passes]") {
  const std::vector<std::pair<std::string, tensor>> feeds{{"x", random_tensor({2, 5, 16}, -3, 5, 3)}};
  // form 0: Pow, Div, Mul(y, w); form 1: Mul(x, x), Reciprocal, Mul(x, r), Mul(w, y); form 2: no weight.
  auto build = [](const std::string& file, int form, bool extra_reader) {
    graph::model_builder b{14};
    auto x = b.input("x", dtype::float32, {2, 5, 16});
    auto sq = form == 1 ? b.node("Mul", {x, x}) : b.node("Pow", {x, scalar(b, 2.0f)});
    auto var = b.node("ReduceMean", {sq}, {{"axes", ints{-1}}, {"keepdims", 1}});
    auto root = b.node("Sqrt", {b.node("Add", {var, scalar(b, 1e-6f)})});
    auto y = form == 1 ? b.node("Mul", {x, b.node("Reciprocal", {root})}) : b.node("Div", {x, root});
    auto w = b.initializer("w", random_tensor({16}, 0.5, 1.5, 9));
    if (form == 0) y = b.node("Mul", {y, w});
    if (form == 1) y = b.node("Mul", {w, y});
    b.output(y);
    if (extra_reader) b.output(var);
    auto path = test::temp_path(file);
    REQUIRE(b.save(path).ok());
    return path;
  };
  CHECK(compare(build("rms_div.onnx", 0, false), feeds) == list{"RMSNormalization"});
  CHECK(compare(build("rms_reciprocal.onnx", 1, false), feeds) == list{"RMSNormalization"});
  CHECK(compare(build("rms_plain.onnx", 2, false), feeds) == list{"RMSNormalization"});
  // The mean square has a second reader: nothing is fused.
  CHECK(compare(build("rms_shared.onnx", 0, true), feeds).size() == 6);

  auto r = test::infer_model(build("rms_attrs.onnx", 1, false));
  REQUIRE(graph::passes::fuse_rms_norm(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"RMSNormalization"});
  const auto* a = graph::passes::match<ops::RMSNormalization>(r.g().nodes[0]);
  REQUIRE(a);
  CHECK(a->axis == -1);
  CHECK(a->epsilon == 1e-6f);
  // A decomposed LayerNorm is still a LayerNormalization (fuse_layer_norm runs first).
  CHECK(compare(layer_norm_model("ln_then_rms.onnx", true, false, false),
                {{"x", random_tensor({2, 5, 16}, -3, 5, 1)}}) == list{"LayerNormalization"});
}

namespace {

/// Add(x, skip) -> LayerNormalization(gamma, beta) at opset 17; `skip` is
/// Relu(x) ([2, 5, 16]) or a [5, 16] constant; with `sum_read` the sum is an
/// output too.
std::filesystem::path skip_ln_model(const std::string& file, bool shared_skip, bool sum_read) {
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2, 5, 16});
  auto skip = shared_skip ? b.initializer("skip", random_tensor({5, 16}, -1, 1, 11)) : b.node("Relu", {x});
  auto s = b.node("Add", {skip, x});
  auto y = b.node("LayerNormalization",
                  {s, b.initializer("gamma", random_tensor({16}, 0.5, 1.5, 12)),
                   b.initializer("beta", random_tensor({16}, -1, 1, 13))},
                  {{"axis", -1}, {"epsilon", 1e-5f}});
  b.output(y);
  if (sum_read) b.output(b.node("Relu", {s}));
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("fuse_skip_layer_norm: Add + LayerNormalization becomes SkipLayerNormalization", "[passes]") {
  const std::vector<std::pair<std::string, tensor>> feeds{{"x", random_tensor({2, 5, 16}, -3, 5, 4)}};
  CHECK(compare(skip_ln_model("skip_ln.onnx", false, false), feeds) == list{"Relu", "com.microsoft.SkipLayerNormalization"});
  CHECK(compare(skip_ln_model("skip_ln_shared.onnx", true, false), feeds) == list{"com.microsoft.SkipLayerNormalization"});
  // The sum is read again: the fused node writes it as its fourth output.
  CHECK(compare(skip_ln_model("skip_ln_sum.onnx", false, true), feeds) ==
        list{"Relu", "com.microsoft.SkipLayerNormalization", "Relu"});
  auto r = test::infer_model(skip_ln_model("skip_ln_attrs.onnx", false, true));
  REQUIRE(graph::passes::fuse_skip_layer_norm(r.g(), r.st, r.ops).ok());
  REQUIRE(r.ops_of() == list{"Relu", "com.microsoft.SkipLayerNormalization", "Relu"});
  const auto& n = r.g().nodes[1];
  REQUIRE(graph::passes::match<ops::SkipLayerNormalization>(n));
  CHECK(graph::passes::match<ops::SkipLayerNormalization>(n)->epsilon == 1e-5f);
  REQUIRE(n.outputs.size() == 4);
  CHECK(n.outputs[1] == -1);
  CHECK(r.g().nodes[2].inputs[0] == n.outputs[3]);
}

TEST_CASE("SkipLayerNormalization against a reference, with bias and every output", "[normalization]") {
  // input [2, 3, 8], skip shared by the batch [3, 8], gamma, beta, bias [8].
  const std::int64_t B = 2, S = 3, H = 8;
  graph::model_builder b{17};
  b.import("com.microsoft", 1);
  auto x = b.input("x", dtype::float32, {B, S, H});
  const tensor skip = random_tensor({S, H}, -1, 1, 21), gamma = random_tensor({H}, 0.5, 1.5, 22),
               beta = random_tensor({H}, -1, 1, 23), bias = random_tensor({H}, -1, 1, 24);
  auto outs = b.node({"com.microsoft", "SkipLayerNormalization"},
                     {x, b.initializer("skip", skip), b.initializer("gamma", gamma), b.initializer("beta", beta),
                      b.initializer("bias", bias)},
                     {{"epsilon", 1e-4f}}, std::vector<std::string>{"y", "mean", "inv", "sum"});
  for (const auto& o : outs) b.output(o);
  auto path = test::temp_path("skip_ln_op.onnx");
  REQUIRE(b.save(path).ok());
  const tensor in = random_tensor({B, S, H}, -3, 5, 25);
  session s(path, {.threads = 1});
  auto got = s.run({{"x", value(in)}});
  REQUIRE(got.size() == 4);
  std::vector<float> y, mean, inv, sum;
  const float *xp = in.data<float>(), *kp = skip.data<float>();
  for (std::int64_t row = 0; row < B * S; ++row) {
    std::vector<double> v(H);
    double m = 0, q = 0;
    for (std::int64_t j = 0; j < H; ++j) {
      v[j] = double(float(xp[row * H + j] + kp[(row % S) * H + j]) + bias.data<float>()[j]);
      m += v[j] / H;
    }
    for (std::int64_t j = 0; j < H; ++j) q += (v[j] - m) * (v[j] - m) / H;
    const double iv = 1 / std::sqrt(q + 1e-4);
    for (std::int64_t j = 0; j < H; ++j) {
      sum.push_back(static_cast<float>(v[j]));
      y.push_back(static_cast<float>((v[j] - m) * iv * gamma.data<float>()[j] + beta.data<float>()[j]));
    }
    mean.push_back(static_cast<float>(m));
    inv.push_back(static_cast<float>(iv));
  }
  test::require_close(got[0].as_tensor(), y, 1e-5, 1e-5);
  CHECK(got[1].as_tensor().shape() == extents{B, S, 1});
  test::require_close(got[1].as_tensor(), mean, 1e-5, 1e-5);
  test::require_close(got[2].as_tensor(), inv, 1e-5, 1e-5);
  test::require_close(got[3].as_tensor(), sum, 1e-6, 1e-6);

  // A skip that fits neither way is refused, naming the node.
  graph::model_builder bad{17};
  bad.import("com.microsoft", 1);
  auto bx = bad.input("x", dtype::float32, {B, S, H});
  bad.output(bad.node({"com.microsoft", "SkipLayerNormalization"},
                      {bx, bad.initializer("skip", random_tensor({S + 1, H}, -1, 1, 26)),
                       bad.initializer("gamma", gamma)}));
  auto bad_path = test::temp_path("skip_ln_bad.onnx");
  REQUIRE(bad.save(bad_path).ok());
  auto refused = session::open(bad_path, {.threads = 1});
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message(), Catch::Contains("SkipLayerNormalization"));
  CHECK_THAT(refused.error().message(), Catch::Contains("skip [4,8]"));
}
