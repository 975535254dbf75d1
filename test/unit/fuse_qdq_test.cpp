// fuse_qdq (graph/passes/fuse_qdq.hpp): QDQ Conv / MatMul become QLinearConv /
// QLinearMatMul, an element-moving op between a DQ and a Q with the same
// parameters runs on the quantized values, a DQ -> Q pair disappears; the
// outputs stay within one quantization step of the float simulation that the
// unoptimized session runs, and most elements agree exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

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

/// Optimized against unoptimized: every element within `step`, and at least
/// 95% identical. Returns the optimized node list.
list compare(const std::filesystem::path& path, const tensor& x, float step) {
  session fused(path, {.threads = 2});
  session plain(path, {.threads = 1, .optimize = false});
  auto want = plain.run({{"x", value(x)}});
  auto got = fused.run({{"x", value(x)}});
  REQUIRE(want.size() == got.size());
  auto e = want[0].as_tensor().values<float>();
  auto g = got[0].as_tensor().values<float>();
  REQUIRE(e.size() == g.size());
  std::size_t same = 0;
  float worst = 0;
  for (std::size_t j = 0; j < e.size(); ++j) {
    same += e[j] == g[j];
    worst = std::max(worst, std::abs(e[j] - g[j]));
  }
  CHECK(worst <= step * 1.0001f);
  CHECK(same >= e.size() * 95 / 100);
  return ops_of(fused);
}

/// x -> Q -> DQ -> Conv(DQ(w int8 per channel), DQ(bias int32)) -> Relu -> Q -> DQ
///   -> [MaxPool between DQ and Q] -> MatMul(DQ(w2)) -> Q -> DQ -> y
std::filesystem::path qdq_model(const std::string& file, bool relu, bool uint8_out) {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 4, 8, 8});
  int names = 0;
  auto u8 = [&](int v) { return b.initializer("z" + std::to_string(names++), tensor::scalar(std::uint8_t(v))); };
  auto f = [&](float v) { return b.initializer("s" + std::to_string(names++), tensor::scalar(v)); };
  auto xs = f(0.02f);
  auto xz = u8(128);
  auto xq = b.node("QuantizeLinear", {x, xs, xz});
  auto xd = b.node("DequantizeLinear", {xq, xs, xz});
  auto wv = test::random_values<std::int8_t>(6 * 4 * 9, -127, 127, 3);
  auto w = b.initializer("w", tensor::from(std::span<const std::int8_t>(wv), {6, 4, 3, 3}));
  const tensor ws_t = random_tensor({6}, 0.002, 0.01, 4);
  auto ws = b.initializer("ws", ws_t);
  auto wz = b.initializer("wz", tensor::from(std::vector<std::int8_t>(6, 0), {6}));
  auto wd = b.node("DequantizeLinear", {w, ws, wz}, {{"axis", std::int64_t(0)}});
  auto bv = test::random_values<std::int32_t>(6, -500, 500, 5);
  auto bq = b.initializer("bq", tensor::from(std::span<const std::int32_t>(bv), {6}));
  std::vector<float> bsv;  // the bias scale xs * ws, as quantizers write it
  for (float v : ws_t.values<float>()) bsv.push_back(0.02f * v);
  auto bs = b.initializer("bs", tensor::from(std::span<const float>(bsv), {6}));
  auto bd = b.node("DequantizeLinear", {bq, bs}, {{"axis", std::int64_t(0)}});
  auto y = b.node("Conv", {xd, wd, bd}, {{"pads", ints{1, 1, 1, 1}}});
  if (relu) y = b.node("Relu", {y});
  auto ys = f(0.05f);
  auto yz = uint8_out ? u8(relu ? 0 : 100) : b.initializer("zi", tensor::scalar(std::int8_t(relu ? -128 : 3)));
  auto yq = b.node("QuantizeLinear", {y, ys, yz});
  auto yd = b.node("DequantizeLinear", {yq, ys, yz});
  auto p = b.node("MaxPool", {yd}, {{"kernel_shape", ints{2, 2}}, {"strides", ints{2, 2}}});
  auto pq = b.node("QuantizeLinear", {p, ys, yz});
  auto pd = b.node("DequantizeLinear", {pq, ys, yz});
  auto r = b.node("Reshape", {pd, b.initializer("shape", tensor::from(std::vector<std::int64_t>{6, 16}, {2}))});
  auto rq = b.node("QuantizeLinear", {r, ys, yz});
  auto rd = b.node("DequantizeLinear", {rq, ys, yz});
  auto w2v = test::random_values<std::int8_t>(16 * 5, -127, 127, 6);
  auto w2 = b.initializer("w2", tensor::from(std::span<const std::int8_t>(w2v), {16, 5}));
  auto w2d = b.node("DequantizeLinear", {w2, f(0.01f)});
  auto m = b.node("MatMul", {rd, w2d});
  auto ms = f(0.1f);
  auto mq = b.node("QuantizeLinear", {m, ms, u8(120)});
  b.output(b.node("DequantizeLinear", {mq, ms, u8(120)}));
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

bool has(const list& l, const std::string& s) { return std::find(l.begin(), l.end(), s) != l.end(); }

}  // namespace

TEST_CASE("fuse_qdq: QDQ Conv, MaxPool, Reshape and MatMul run on integers", "[passes]") {
  const tensor x = random_tensor({1, 4, 8, 8}, -2, 2, 1);
  for (bool relu : {false, true})
    for (bool u8 : {false, true}) {
      INFO("relu " << relu << " uint8 output " << u8);
      const list ops = compare(qdq_model("qdq.onnx", relu, u8), x, 0.1f);
      CHECK(has(ops, relu ? "QLinearConv" : "QLinearConv"));
      CHECK(has(ops, "QLinearMatMul"));
      CHECK(!has(ops, "Conv"));
      CHECK(!has(ops, "Relu"));
      CHECK(!has(ops, "MatMul"));
      // MaxPool and Reshape on the quantized values: no DQ -> Q left around them
      CHECK(std::count(ops.begin(), ops.end(), "DequantizeLinear") == 1);  // the output's
    }
}

namespace {

/// x -> Q -> DQ -> HardSigmoid -> Q -> DQ -> Mul(DQ(x), .) (HardSwish) -> Q -> DQ
///   -> Mul(per-channel constant) -> Q -> DQ -> Add(DQ of the first Q) -> Q -> DQ
///   -> GlobalAveragePool -> Q -> DQ -> y
std::filesystem::path elementwise_model(const std::string& file) {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 3, 6, 7});
  int names = 0;
  auto qdq = [&](const std::string& v, float s, int z) {
    auto sc = b.initializer("s" + std::to_string(names), tensor::scalar(s));
    auto zp = b.initializer("z" + std::to_string(names++), tensor::scalar(std::uint8_t(z)));
    return b.node("DequantizeLinear", {b.node("QuantizeLinear", {v, sc, zp}), sc, zp});
  };
  auto xd = qdq(x, 0.03f, 120);
  auto hs = qdq(b.node("HardSigmoid", {xd}, {{"alpha", 1.0f / 6}, {"beta", 0.5f}}), 1.0f / 255, 0);
  auto sw = qdq(b.node("Mul", {xd, hs}), 0.025f, 20);
  auto w = b.initializer("w", random_tensor({3, 1, 1}, 0.5, 2.0, 9));
  auto m = qdq(b.node("Mul", {sw, w}), 0.04f, 30);
  auto a = qdq(b.node("Add", {m, xd}), 0.06f, 90);
  b.output(qdq(b.node("GlobalAveragePool", {a}), 0.02f, 100));
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("fuse_qdq: elementwise chains become lookup tables, Add/Mul/GlobalAveragePool QLinear ops", "[passes]") {
  const tensor x = random_tensor({1, 3, 6, 7}, -3, 3, 2);
  const list ops = compare(elementwise_model("qdq_elementwise.onnx"), x, 0.02f);
  CHECK(has(ops, "onyx.fused.QLinearLookup"));                 // HardSigmoid, and the per-channel Mul
  CHECK(has(ops, "com.microsoft.QLinearMul"));                 // x * HardSigmoid(x)
  CHECK(has(ops, "com.microsoft.QLinearAdd"));
  CHECK(has(ops, "com.microsoft.QLinearGlobalAveragePool"));
  CHECK(!has(ops, "HardSigmoid"));
  CHECK(!has(ops, "Mul"));
  CHECK(std::count(ops.begin(), ops.end(), "DequantizeLinear") == 1);  // the output's
}

namespace {

/// x -> Q -> DQ -> hardswish written out (x * Clip(x + 3, 0, 6) / 6) -> Mul(a)
///   -> Add(per-channel b) -> Q -> DQ -> y: a DAG of float ops reading x alone.
/// With `leak`, the Clip's output is also a graph output (read outside the
/// region), so no table may replace it.
std::filesystem::path hardswish_model(const std::string& file, bool leak) {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 3, 5, 4});
  auto f = [&](const std::string& n, float v) { return b.initializer(n, tensor::scalar(v)); };
  auto s0 = f("s0", 0.03f), s1 = f("s1", 0.02f);
  auto z0 = b.initializer("z0", tensor::scalar(std::uint8_t(110)));
  auto z1 = b.initializer("z1", tensor::scalar(std::uint8_t(40)));
  auto xd = b.node("DequantizeLinear", {b.node("QuantizeLinear", {x, s0, z0}), s0, z0});
  auto clip = b.node("Clip", {b.node("Add", {xd, f("three", 3.0f)}), f("lo", 0.0f), f("hi", 6.0f)});
  auto hs = b.node("Div", {b.node("Mul", {xd, clip}), f("six", 6.0f)});
  auto scaled = b.node("Mul", {f("a", 1.3f), hs});
  auto shifted = b.node("Add", {scaled, b.initializer("b", random_tensor({3, 1, 1}, -0.5, 0.5, 4))});
  b.output(b.node("DequantizeLinear", {b.node("QuantizeLinear", {shifted, s1, z1}), s1, z1}));
  if (leak) b.output(clip);
  auto path = test::temp_path(file);
  REQUIRE(b.save(path).ok());
  return path;
}

}  // namespace

TEST_CASE("fuse_qdq: a DAG of elementwise ops reading one DQ'd value becomes one lookup table", "[passes]") {
  const tensor x = random_tensor({1, 3, 5, 4}, -4, 4, 5);
  const list ops = compare(hardswish_model("qdq_hardswish.onnx", false), x, 0.02f);
  CHECK(std::count(ops.begin(), ops.end(), "onyx.fused.QLinearLookup") == 1);
  for (const char* op : {"Add", "Mul", "Div", "Clip"}) CHECK(!has(ops, op));
  CHECK(std::count(ops.begin(), ops.end(), "DequantizeLinear") == 1);  // the output's
  // A value inside the region read outside it: the float ops stay (as they
  // are, or as one float region where fuse_elementwise takes them).
  session leaky(hardswish_model("qdq_hardswish_leak.onnx", true), {.threads = 1});
  CHECK(!has(ops_of(leaky), "onyx.fused.QLinearLookup"));
  CHECK((has(ops_of(leaky), "Clip") || has(ops_of(leaky), "onyx.fused.Elementwise")));
}

TEST_CASE("fuse_qdq: a QDQ Conv read in float runs as an int8 convolution with a float epilogue", "[passes]") {
  // x -> Q -> DQ -> Conv(DQ(w int8 per channel) [, DQ(bias int32) | float bias]) -> hardswish -> y:
  // no Q after the Conv (onyx-quantize leaves a region's input in float).
  const tensor x = random_tensor({1, 4, 9, 7}, -2, 2, 21);
  for (int bias : {0, 1, 2}) {
    INFO("bias " << (bias == 0 ? "none" : bias == 1 ? "int32 through a DQ" : "float"));
    graph::model_builder b{13};
    auto in = b.input("x", dtype::float32, {1, 4, 9, 7});
    auto f = [&](const std::string& n, float v) { return b.initializer(n, tensor::scalar(v)); };
    auto xz = b.initializer("xz", tensor::scalar(std::uint8_t(120)));
    auto xd = b.node("DequantizeLinear", {b.node("QuantizeLinear", {in, f("xs", 0.02f), xz}), "xs", xz});
    auto wv = test::random_values<std::int8_t>(6 * 4 * 9, -127, 127, 22);
    auto w = b.initializer("w", tensor::from(std::span<const std::int8_t>(wv), {6, 4, 3, 3}));
    const tensor ws = random_tensor({6}, 0.002, 0.01, 23);
    auto wd = b.node("DequantizeLinear", {w, b.initializer("ws", ws), b.initializer("wz", tensor::from(std::vector<std::int8_t>(6, 0), {6}))},
                     {{"axis", std::int64_t(0)}});
    std::vector<std::string> conv_in{xd, wd};
    if (bias == 1) {
      auto bv = test::random_values<std::int32_t>(6, -500, 500, 24);
      std::vector<float> bs;
      for (float v : ws.values<float>()) bs.push_back(0.02f * v);
      conv_in.push_back(b.node("DequantizeLinear", {b.initializer("bq", tensor::from(std::span<const std::int32_t>(bv), {6})),
                                                    b.initializer("bs", tensor::from(std::span<const float>(bs), {6}))},
                               {{"axis", std::int64_t(0)}}));
    } else if (bias == 2) {
      conv_in.push_back(b.initializer("bf", random_tensor({6}, -0.5, 0.5, 25)));
    }
    auto y = b.node("Conv", conv_in, {{"pads", ints{1, 1, 1, 1}}});
    auto clip = b.node("Clip", {b.node("Add", {y, f("three", 3.0f)}), f("zero", 0.0f), f("six", 6.0f)});
    b.output(b.node("Div", {b.node("Mul", {y, clip}), "six"}));
    auto path = test::temp_path("qdq_conv_float.onnx");
    REQUIRE(b.save(path).ok());
    session fused(path, {.threads = 2});
    session plain(path, {.threads = 1, .optimize = false});
    const auto expected = plain.run({{"x", value(x)}});
    const auto want = expected[0].as_tensor().values<float>();
    const list ops = ops_of(fused);
    CHECK(has(ops, "onyx.fused.ConvIntegerToFloat"));
    CHECK(has(ops, "onyx.fused.Elementwise"));
    CHECK(!has(ops, "Conv"));
    // The integer sum is exact where the float simulation rounds as it adds.
    test::require_close(fused.run({{"x", value(x)}})[0].as_tensor(), std::vector<float>(want.begin(), want.end()),
                        1e-5, 1e-5);
  }
}
