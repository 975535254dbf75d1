// fuse_quantized (graph/passes/fuse_quantized.hpp): the chains ORT's
// quantize_dynamic writes become DynamicQuantizeMatMul / DynamicQuantizeConv
// with bit-identical outputs (the unfused session runs DynamicQuantizeLinear,
// MatMulInteger / ConvInteger, Cast, Mul and Add one by one); a shared
// quantized input (attention's Q, K, V) is quantized once and each reader
// becomes a MatMulIntegerToFloat; a chain whose
// scale is not a constant stays as it is. The fused kernels against a float
// reference computed here from the spec's formula. A Gelu after either
// (fuse_matmul) moves into onyx.fused.DynamicQuantizeMatMul /
// MatMulIntegerToFloat, bit for bit, at odd sizes; ctest runs this file at
// every ISA level (ONYX_ISA), and the epilogue itself is checked against the
// Gelu kernel's function on every int8 kernel (isa::q8_available).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>

#include "kernels/cpu/dynamic_quantize_gemm.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "op_harness.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;
using list = std::vector<std::string>;
using ints = std::vector<std::int64_t>;
using str = std::string;
using test::ops_of;
using test::random_tensor;

/// Runs the model optimized and not; outputs must agree bit for bit. Returns
/// the optimized session's node list and its first output.
std::pair<list, tensor> compare(const std::filesystem::path& path, const tensor& x) {
  session fused(path, {.threads = 2});
  session plain(path, {.threads = 1, .optimize = false});
  auto want = plain.run({{"x", value(x)}});
  auto got = fused.run({{"x", value(x)}});
  REQUIRE(want.size() == got.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    auto e = want[i].as_tensor().values<float>();
    auto g = got[i].as_tensor().values<float>();
    REQUIRE(e.size() == g.size());
    std::size_t differ = 0;
    for (std::size_t j = 0; j < e.size(); ++j) differ += e[j] != g[j];
    CHECK(differ == 0);
  }
  return {ops_of(fused), got[0].as_tensor()};
}

tensor int8_weights(const extents& e, unsigned seed) {
  auto v = test::random_values<std::int8_t>(static_cast<std::size_t>(element_count(e)), -128, 127, seed);
  return tensor::from(std::span<const std::int8_t>(v), e);
}

/// x [2, 5, 16] -> DynamicQuantizeLinear -> `readers` x (MatMulInteger with W [16, 24] int8
/// -> Cast -> Mul(Mul(xs, ws)) -> Add bias).
std::filesystem::path matmul_model(const std::string& file, int readers, bool per_column, bool constant_scale = true) {
  graph::model_builder b{14};
  auto x = b.input("x", dtype::float32, {2, 5, 16});
  auto q = b.node("DynamicQuantizeLinear", {x}, {}, 3);
  for (int r = 0; r < readers; ++r) {
    auto w = b.initializer("w" + std::to_string(r), int8_weights({16, 24}, 10 + r));
    auto wz = b.initializer("wz" + std::to_string(r), tensor::scalar(std::int8_t(r == 0 ? 0 : 3)));
    auto ws = constant_scale
                  ? b.initializer("ws" + std::to_string(r), per_column ? random_tensor({24}, 0.001, 0.02, 20 + r)
                                                                       : tensor::scalar(0.01f))
                  : b.node("Abs", {b.node("ReduceMax", {x}, {{"keepdims", 0}})});
    auto mi = b.node("MatMulInteger", {q[0], w, q[2], wz});
    auto f = b.node("Cast", {mi}, {{"to", std::int64_t(1)}});
    auto y = b.node("Mul", {f, b.node("Mul", {q[1], ws})});
    y = b.node("Add", {y, b.initializer("bias" + std::to_string(r), random_tensor({24}, -1, 1, 30 + r))});
    b.output(y);
  }
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

/// x [1, 8, 9, 10] -> DynamicQuantizeLinear -> ConvInteger (W [M, 8/group, k, k]) -> Cast -> Mul -> Add.
std::filesystem::path conv_model(const std::string& file, std::int64_t m, std::int64_t group, std::int64_t k,
                                 std::int64_t stride) {
  graph::model_builder b{14};
  auto x = b.input("x", dtype::float32, {1, 8, 9, 10});
  auto q = b.node("DynamicQuantizeLinear", {x}, {}, 3);
  auto w = b.initializer("w", int8_weights({m, 8 / group, k, k}, 40));
  auto mi = b.node("ConvInteger", {q[0], w, q[2]},
                   {{"group", group}, {"strides", ints{stride, stride}}, {"pads", ints{k / 2, k / 2, k / 2, k / 2}}});
  auto f = b.node("Cast", {mi}, {{"to", std::int64_t(1)}});
  auto y = b.node("Mul", {f, b.node("Mul", {q[1], b.initializer("ws", random_tensor({m, 1, 1}, 0.001, 0.02, 41))})});
  y = b.node("Add", {y, b.initializer("bias", random_tensor({1, m, 1, 1}, -1, 1, 42))});
  b.output(y);
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

/// x [1, 5, 70] -> DynamicQuantizeLinear -> `readers` x (MatMulInteger with
/// W [70, 37] int8 -> Cast -> Mul(Mul(xs, ws)) -> Add bias -> Gelu): M, N
/// and K on no tile boundary. `shared`: the first product is an output too.
std::filesystem::path gelu_model(const std::string& file, int readers, const std::string& approximate,
                                 bool shared = false) {
  graph::model_builder b{20};
  auto x = b.input("x", dtype::float32, {1, 5, 70});
  auto q = b.node("DynamicQuantizeLinear", {x}, {}, 3);
  for (int r = 0; r < readers; ++r) {
    auto w = b.initializer("w" + std::to_string(r), int8_weights({70, 37}, 50 + r));
    auto ws = b.initializer("ws" + std::to_string(r), random_tensor({37}, 0.0002, 0.002, 60 + r));
    auto mi = b.node("MatMulInteger", {q[0], w, q[2]});
    auto y = b.node("Mul", {b.node("Cast", {mi}, {{"to", std::int64_t(1)}}), b.node("Mul", {q[1], ws})});
    y = b.node("Add", {y, b.initializer("bias" + std::to_string(r), random_tensor({37}, -1, 1, 70 + r))});
    if (shared && r == 0) b.output(y);
    b.output(b.node("Gelu", {y}, {{"approximate", approximate}}));
  }
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("fuse_quantized: the dynamic MatMul chain becomes DynamicQuantizeMatMul", "[passes]") {
  const tensor x = random_tensor({2, 5, 16}, -3, 5, 1);
  for (bool per_column : {false, true}) {
    auto [ops, y] = compare(matmul_model("dq_mm.onnx", 1, per_column), x);
    CHECK(ops == list{"com.microsoft.DynamicQuantizeMatMul"});
  }
  // Three readers of one quantized input: it is quantized once, each chain
  // becomes a MatMulIntegerToFloat on it (same bits as the chain).
  auto [ops, y] = compare(matmul_model("dq_mm3.onnx", 3, true), x);
  CHECK(ops == list{"DynamicQuantizeLinear", "com.microsoft.MatMulIntegerToFloat", "com.microsoft.MatMulIntegerToFloat",
                    "com.microsoft.MatMulIntegerToFloat"});
  // A scale computed at run time: nothing fuses.
  auto [kept, y2] = compare(matmul_model("dq_mm_dyn.onnx", 1, false, false), x);
  CHECK(std::find(kept.begin(), kept.end(), "MatMulInteger") != kept.end());
}

TEST_CASE("DynamicQuantizeMatMul matches the dequantized product", "[passes]") {
  // Reference from the com.microsoft formula, in double: quantize x as
  // DynamicQuantizeLinear does, then sum_k (xq - xz)(w - wz) * xs * ws + b.
  const tensor x = random_tensor({2, 5, 16}, -3, 5, 1);
  auto [ops, y] = compare(matmul_model("dq_mm_ref.onnx", 1, false), x);
  auto xv = x.values<float>();
  float lo = 0, hi = 0;
  for (float v : xv) lo = std::min(lo, v), hi = std::max(hi, v);
  const float xs = (hi - lo) / 255.0f;
  const float xz = std::nearbyint(std::clamp(-lo / xs, 0.0f, 255.0f));
  const tensor w = int8_weights({16, 24}, 10);
  const tensor bias = random_tensor({24}, -1, 1, 30);
  auto wv = w.values<std::int8_t>();
  auto bv = bias.values<float>();
  auto yv = y.values<float>();
  double worst = 0;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 24; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k) {
        const double q = std::clamp(std::nearbyint(xv[i * 16 + k] / xs) + xz, 0.0f, 255.0f);
        s += (q - xz) * wv[k * 24 + j];
      }
      const double ref = s * xs * 0.01 + bv[j];
      worst = std::max(worst, std::abs(ref - yv[i * 24 + j]) / (1 + std::abs(ref)));
    }
  CHECK(worst < 1e-5);
}

TEST_CASE("fuse_quantized: the dynamic Conv chain becomes DynamicQuantizeConv", "[passes]") {
  const tensor x = random_tensor({1, 8, 9, 10}, -2, 3, 5);
  for (auto [m, group, k, stride] : {std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>{12, 1, 3, 1},
                                     {12, 2, 3, 2}, {16, 1, 1, 1}, {8, 8, 3, 1}, {8, 8, 5, 2}}) {
    INFO("M " << m << " group " << group << " kernel " << k << " stride " << stride);
    auto [ops, y] = compare(conv_model("dq_conv.onnx", m, group, k, stride), x);
    CHECK(ops == list{"onyx.fused.DynamicQuantizeConv"});
  }
}

TEST_CASE("fuse_matmul: a Gelu after a quantized MatMul moves into its float epilogue", "[passes]") {
  const tensor x = random_tensor({1, 5, 70}, -3, 5, 7);
  using fn = ops::fused::MatMul::function;
  for (auto [approximate, then] : {std::pair{str("none"), fn::gelu}, std::pair{str("tanh"), fn::gelu_tanh}}) {
    INFO("approximate " << approximate);
    auto [one, y1] = compare(gelu_model("dq_mm_gelu.onnx", 1, approximate), x);
    CHECK(one == list{"onyx.fused.DynamicQuantizeMatMul"});
    auto [two, y2] = compare(gelu_model("dq_mm2_gelu.onnx", 2, approximate), x);
    CHECK(two == list{"DynamicQuantizeLinear", "onyx.fused.MatMulIntegerToFloat", "onyx.fused.MatMulIntegerToFloat"});
    // The product has a second reader: the Gelu stays.
    auto [kept, y3] = compare(gelu_model("dq_mm_gelu_shared.onnx", 1, approximate, true), x);
    CHECK(kept == list{"com.microsoft.DynamicQuantizeMatMul", "Gelu"});

    auto r = test::infer_model(gelu_model("dq_mm_gelu_attrs.onnx", 1, approximate));
    REQUIRE(graph::passes::fuse_quantized(r.g(), r.st, r.ops).ok());
    REQUIRE(graph::passes::fuse_matmul(r.g(), r.st, r.ops).ok());
    graph::passes::remove_dead_nodes(r.g(), r.st);
    REQUIRE(r.ops_of() == list{"onyx.fused.DynamicQuantizeMatMul"});
    const graph::node& n = r.g().nodes[0];
    const auto* a = graph::passes::match<ops::fused::DynamicQuantizeMatMul>(n);
    REQUIRE(a);
    CHECK(a->then == then);
    auto spelled = ops::fused::DynamicQuantizeMatMul::parse(n.raw_attrs);  // as a saved model reads back
    REQUIRE(spelled.ok());
    CHECK((*spelled).then == then);
    CHECK(n.op_type == "MatMulInteger+Cast+Mul+Add+Gelu");
  }
}

TEST_CASE("q8_gemm: a quantized MatMul's fused GELU is the Gelu kernel's, on every int8 kernel", "[qgemm]") {
  using namespace kernels::cpu;
  const std::int64_t M = 5, N = 37, K = 70;
  auto a = test::random_values<std::uint8_t>(M * K, 0, 255, 80);
  auto b = test::random_values<std::int8_t>(K * N, -128, 127, 81);
  auto scale = test::random_values<float>(N, 2e-5, 1e-4, 82);
  auto bias = test::random_values<float>(N, -1, 1, 83);
  const std::int32_t za = 131, zb = 0;
  int count = 0;
  const isa::q8_gemm_kernel* const* all = isa::q8_available(&count);
  for (const isa::q8_gemm_kernel* kernel : std::span(all, static_cast<std::size_t>(count))) {
    for (isa::f32_unary_fn then : {isa::active().f32_gelu, isa::active().f32_gelu_tanh}) {
      INFO(kernel->name << (then == isa::active().f32_gelu ? " erf" : " tanh"));
      // The product as the unfused op writes it, then the Gelu kernel's function over all of it; and fused.
      const auto run = [&](isa::f32_unary_fn epilogue) {
        std::vector<float> y(static_cast<std::size_t>(M * N), NAN);
        q8_operand qa, qb;
        qa.matrix = {a.data(), false, K, false};
        qb.matrix = {reinterpret_cast<const std::uint8_t*>(b.data()), true, N, true};
        qa.zero_point = &za;
        qb.zero_point = &zb;
        auto write = [&](const q8_block& blk) {
          write_dequantized(blk, y.data() + blk.i0 * N + blk.j0, N, scale.data() + blk.j0, bias.data() + blk.j0,
                            epilogue);
        };
        q8_sink sink = q8_sink::adding(write);
        sink.floats = {y.data(), N, scale.data(), bias.data(), epilogue};
        q8_gemm(M, N, K, qa, qb, sink, nullptr, *kernel);
        return y;
      };
      std::vector<float> want = run(nullptr);
      then(want.data(), want.data(), M * N);
      const std::vector<float> got = run(then);
      std::size_t differ = 0;
      for (std::size_t j = 0; j < want.size(); ++j) differ += std::memcmp(&want[j], &got[j], sizeof(float)) != 0;
      CHECK(differ == 0);
    }
  }
}
