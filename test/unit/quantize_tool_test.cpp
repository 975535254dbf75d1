// tools/quantize.hpp (onyx-quantize): the node patterns and names ONNX
// Runtime's quantizer writes, weights quantized as hand-computed, calibrated
// ranges, and the quantized models' outputs against a scalar reference of
// the integer arithmetic written from the ONNX spec (DynamicQuantizeLinear,
// MatMulInteger) and against the float model.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"
#include "onyx/tools/float16.hpp"
#include "onyx/tools/quantize.hpp"
#include "pass_harness.hpp"
#include "temp_path.hpp"

namespace {

using namespace onyx;

std::vector<std::string> ops_of(const onnx::GraphProto& g) {
  std::vector<std::string> ops;
  for (const auto& n : g.node()) ops.push_back(n.op_type());
  return ops;
}

const onnx::NodeProto* node_named(const onnx::GraphProto& g, const std::string& name) {
  for (const auto& n : g.node())
    if (n.name() == name) return &n;
  return nullptr;
}

tensor initializer(const onnx::GraphProto& g, const std::string& name) {
  for (const auto& i : g.initializer())
    if (i.name() == name) {
      onnx::TensorProto copy = i;
      auto t = graph::tensor_from_proto(copy);
      REQUIRE(t.ok());
      return std::move(t).value();
    }
  FAIL("no initializer " << name);
  return {};
}

bool has_initializer(const onnx::GraphProto& g, const std::string& name) {
  for (const auto& i : g.initializer())
    if (i.name() == name) return true;
  return false;
}

std::vector<float> floats(const value& v) {
  auto s = v.as_tensor().values<float>();
  return {s.begin(), s.end()};
}

std::vector<value> run(const onnx::ModelProto& m, const std::vector<named_value>& in) {
  auto s = session::open_bytes(m.SerializeAsString(), {.threads = 1});
  REQUIRE(s.ok());
  std::vector<value> out;
  auto st = (*s)->run(in, out);
  INFO(st.message());
  REQUIRE(st.ok());
  return out;
}

/// DynamicQuantizeLinear from the ONNX spec: uint8 over [min(0, min x), max(0, max x)].
struct dql {
  std::vector<int> q;
  float scale;
  int zero_point;
};
dql dynamic_quantize(const std::vector<float>& x) {
  float lo = 0, hi = 0;
  for (float v : x) lo = std::min(lo, v), hi = std::max(hi, v);
  dql r{{}, (hi - lo) / 255.0f, 0};
  r.zero_point = static_cast<int>(std::clamp(std::nearbyint(-lo / r.scale), 0.0f, 255.0f));
  for (float v : x) r.q.push_back(static_cast<int>(std::clamp(std::nearbyint(v / r.scale) + r.zero_point, 0.0f, 255.0f)));
  return r;
}

}  // namespace

TEST_CASE("quantize_dynamic: MatMul, Gemm and Conv in ONNX Runtime's patterns") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {2, 4});
  // W1 [4, 3]: max |w| = 1, so scale 1/127 and q = round(127 w).
  const std::vector<float> w1{1.0f, -0.3f, 0.6f, 0.1f, -1.0f, 0.2f, 0.45f, 0.05f, -0.7f, 0.9f, 0.33f, -0.15f};
  auto y1 = b.node("MatMul", {x, b.initializer("W1", tensor::from<float>(w1, {4, 3}))});  // n0
  // Gemm with transB: W2 is [2, 3] (out, in); C the bias.
  const std::vector<float> w2{0.5f, -0.25f, 2.0f, -1.5f, 0.75f, 0.125f};
  auto y2 = b.node("Gemm", {y1, b.initializer("W2", tensor::from<float>(w2, {2, 3})),
                            b.initializer("C", tensor::from<float>({0.5f, -1.0f}, {2}))},
                   {{"transB", 1}});  // n1
  auto img = b.input("img", dtype::float32, {1, 2, 4, 4});
  std::vector<float> wc(3 * 2 * 3 * 3);
  for (std::size_t i = 0; i < wc.size(); ++i) wc[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.2f;
  auto yc = b.node("Conv", {img, b.initializer("Wc", tensor::from<float>(wc, {3, 2, 3, 3})),
                            b.initializer("Bc", tensor::from<float>({0.1f, -0.2f, 0.3f}, {3}))},
                   {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});  // n2
  b.output(y1);
  b.output(y2);
  b.output(yc);
  const onnx::ModelProto fp = b.proto();
  onnx::ModelProto m = fp;
  auto r = tools::quantize_dynamic(m, {});
  REQUIRE(r.ok());
  CHECK(r->quantized_nodes == 3);
  CHECK(r->quantized_weights == 3);
  CHECK(r->quantized_activations == 3);
  const auto& g = m.graph();

  CHECK(ops_of(g) == std::vector<std::string>{"DynamicQuantizeLinear", "MatMulInteger", "Cast", "Mul", "Mul",
                                              "DynamicQuantizeLinear", "MatMulInteger", "Cast", "Mul", "Mul", "Add",
                                              "DynamicQuantizeLinear", "ConvInteger", "Cast", "Mul", "Mul",
                                              "Reshape", "Add"});
  // ORT's names.
  auto* q = node_named(g, "x_QuantizeLinear");
  REQUIRE(q);
  CHECK(std::vector<std::string>(q->output().begin(), q->output().end()) ==
        std::vector<std::string>{"x_quantized", "x_scale", "x_zero_point"});
  auto* mm = node_named(g, "n0_quant");
  REQUIRE(mm);
  CHECK(std::vector<std::string>(mm->input().begin(), mm->input().end()) ==
        std::vector<std::string>{"x_quantized", "W1_quantized", "x_zero_point", "W1_zero_point"});
  CHECK(mm->output(0) == y1 + "_output_quantized");
  auto* cast = node_named(g, y1 + "_output_quantized_cast");
  REQUIRE(cast);
  CHECK(cast->output(0) == y1 + "_output_quantized_cast_output");
  auto* scales = node_named(g, "n0_quant_scales_mul");
  REQUIRE(scales);
  CHECK(scales->input(0) == "x_scale");
  CHECK(scales->input(1) == "W1_scale");
  CHECK(scales->output(0) == "n0_quant_scales_mul:0");
  auto* out_mul = node_named(g, "n0_quant_output_scale_mul");
  REQUIRE(out_mul);
  CHECK(out_mul->output(0) == y1);
  // Gemm became MatMul + Add (ORT's replace_gemm_with_matmul), its B transposed in place.
  CHECK(node_named(g, "n1_MatMul_quant"));
  auto* add = node_named(g, "n1_Add");
  REQUIRE(add);
  CHECK(add->input(0) == y2 + "_MatMul");
  CHECK(add->input(1) == "C");
  CHECK(add->output(0) == y2);
  // Conv: ConvInteger keeps the attributes; bias reshaped to [1, -1, 1, 1] and added.
  auto* ci = node_named(g, "n2_quant");
  REQUIRE(ci);
  REQUIRE(ci->attribute_size() == 1);
  CHECK(ci->attribute(0).name() == "pads");
  auto* bias_add = node_named(g, yc + "_bias_add");
  REQUIRE(bias_add);
  CHECK(bias_add->input(0) == yc + "quant_scaled_output");
  auto shape = initializer(g, yc + "_bias_reshape_shape");
  CHECK(std::vector<std::int64_t>(shape.values<std::int64_t>().begin(), shape.values<std::int64_t>().end()) ==
        std::vector<std::int64_t>{1, -1, 1, 1});
  // Float weights replaced; C and Bc stay float.
  CHECK_FALSE(has_initializer(g, "W1"));
  CHECK_FALSE(has_initializer(g, "W2"));
  CHECK_FALSE(has_initializer(g, "Wc"));
  CHECK(has_initializer(g, "C"));

  // W1 per tensor: scale 1/127, zero point 0, q = round(127 w) (hand-computed).
  auto w1q = initializer(g, "W1_quantized");
  REQUIRE(w1q.type() == dtype::int8);
  CHECK(w1q.shape() == extents{4, 3});
  const std::vector<std::int8_t> w1_expected{127, -38, 76, 13, -127, 25, 57, 6, -89, 114, 42, -19};
  CHECK(std::vector<std::int8_t>(w1q.values<std::int8_t>().begin(), w1q.values<std::int8_t>().end()) == w1_expected);
  auto w1s = initializer(g, "W1_scale");
  CHECK(w1s.shape() == extents{});
  CHECK(w1s.values<float>()[0] == static_cast<float>(2.0 / 254.0));
  CHECK(initializer(g, "W1_zero_point").values<std::int8_t>()[0] == 0);
  // W2 transposed to [3, 2] (in, out): max |w| = 2.
  auto w2q = initializer(g, "W2_quantized");
  CHECK(w2q.shape() == extents{3, 2});
  const std::vector<std::int8_t> w2_expected{32, -95, -16, 48, 127, 8};  // round(63.5 w), transposed
  CHECK(std::vector<std::int8_t>(w2q.values<std::int8_t>().begin(), w2q.values<std::int8_t>().end()) == w2_expected);

  // Outputs: the first MatMul against the spec's integer arithmetic.
  const std::vector<float> xs{0.3f, -1.2f, 2.5f, 0.7f, -0.4f, 1.1f, 0.0f, -2.0f};
  std::vector<float> imgs(2 * 4 * 4);
  for (std::size_t i = 0; i < imgs.size(); ++i) imgs[i] = std::sin(static_cast<float>(i)) * 1.5f;
  std::vector<named_value> in{{"x", tensor::from<float>(xs, {2, 4})}, {"img", tensor::from<float>(imgs, {1, 2, 4, 4})}};
  auto qo = run(m, in);
  auto fo = run(fp, in);
  const dql xq = dynamic_quantize(xs);
  const float w1scale = w1s.values<float>()[0];
  const auto got1 = floats(qo[0]);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      std::int32_t acc = 0;
      for (int k = 0; k < 4; ++k) acc += (xq.q[i * 4 + k] - xq.zero_point) * w1_expected[k * 3 + j];
      const float expected = static_cast<float>(acc) * (xq.scale * w1scale);
      CHECK(got1[i * 3 + j] == Approx(expected).epsilon(1e-6).margin(1e-6));
    }
  // Every output near the float model's: within a few quantization steps.
  for (std::size_t o = 0; o < 3; ++o) {
    const auto a = floats(qo[o]), e = floats(fo[o]);
    REQUIRE(a.size() == e.size());
    float range = 0;
    for (float v : e) range = std::max(range, std::fabs(v));
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(a[i] - e[i]) <= 0.03f * range + 1e-4f);
  }
}

TEST_CASE("quantize_dynamic: per-channel MatMul weights, shared activation, opset handling and errors") {
  graph::model_builder b{9};  // below 10: moved to 11, as ORT does
  auto x = b.input("x", dtype::float32, {1, 2});
  auto w = b.initializer("W", tensor::from<float>({0.5f, -4.0f, -0.2f, 1.5f}, {2, 2}));
  b.output(b.node("MatMul", {x, w}));
  b.output(b.node("MatMul", {x, b.initializer("V", tensor::from<float>({1.0f, 1.0f, 1.0f, 1.0f}, {2, 2}))}));
  onnx::ModelProto m = b.proto();
  auto r = tools::quantize_dynamic(m, {}, {.per_channel = true});
  REQUIRE(r.ok());
  CHECK(m.opset_import(0).version() == 11);
  CHECK(r->quantized_activations == 1);  // x quantized once for both
  auto s = initializer(m.graph(), "W_scale");
  REQUIRE(s.shape() == extents{2});
  CHECK(s.values<float>()[0] == static_cast<float>(1.0 / 254.0));  // column 0: max |w| 0.5
  CHECK(s.values<float>()[1] == static_cast<float>(8.0 / 254.0));  // column 1: max |w| 4
  auto q = initializer(m.graph(), "W_quantized");
  CHECK(std::vector<std::int8_t>(q.values<std::int8_t>().begin(), q.values<std::int8_t>().end()) ==
        std::vector<std::int8_t>{127, -127, -51, 48});  // round(254 w) and round(31.75 w)
  CHECK(initializer(m.graph(), "W_zero_point").shape() == extents{2});

  graph::model_builder b10{10};
  auto x10 = b10.input("x", dtype::float32, {1, 2});
  b10.output(b10.node("MatMul", {x10, b10.initializer("W", tensor::from<float>({1.0f, 2.0f}, {2, 1}))}));
  onnx::ModelProto m10 = b10.proto();
  auto r10 = tools::quantize_dynamic(m10, {});
  REQUIRE_FALSE(r10.ok());
  CHECK(r10.error().message().find("opset 11") != std::string::npos);

  // A MatMul whose B is not constant stays float, with a note.
  graph::model_builder bv{13};
  auto a = bv.input("a", dtype::float32, {2, 2});
  auto c = bv.input("c", dtype::float32, {2, 2});
  bv.output(bv.node("MatMul", {a, c}));
  onnx::ModelProto mv = bv.proto();
  auto rv = tools::quantize_dynamic(mv, {});
  REQUIRE(rv.ok());
  CHECK(rv->quantized_nodes == 0);
  CHECK(ops_of(mv.graph()) == std::vector<std::string>{"MatMul"});
  REQUIRE(rv->notes.size() == 1);
}

namespace {

void write_sets(const std::filesystem::path& dir, const std::vector<std::vector<float>>& samples, const extents& shape) {
  for (std::size_t k = 0; k < samples.size(); ++k) {
    auto set = dir / ("test_data_set_" + std::to_string(k));
    std::filesystem::create_directories(set);
    REQUIRE(graph::write_tensor_file(tensor::from<float>(samples[k], shape), set / "input_0.pb", "x").ok());
  }
}

}  // namespace

TEST_CASE("quantize_static: QDQ around Conv, Relu, Add and a pool, calibrated by min and max") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 2, 4, 4});
  std::vector<float> w(3 * 2 * 3 * 3);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 5) - 2) * 0.1f * (1 + i / 18);
  auto conv = b.node("Conv", {x, b.initializer("w", tensor::from<float>(w, {3, 2, 3, 3})),
                              b.initializer("b", tensor::from<float>({0.2f, -0.1f, 0.05f}, {3}))},
                     {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto relu = b.node("Relu", {conv});
  auto sum = b.node("Add", {relu, b.initializer("c", tensor::from<float>({0.5f, -0.25f, 1.0f}, {3, 1, 1}))});
  auto pool = b.node("GlobalAveragePool", {sum});
  b.output(pool);
  const onnx::ModelProto fp = b.proto();

  // Samples whose overall range is [-1, 2.5].
  std::vector<std::vector<float>> samples(3, std::vector<float>(32));
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < 32; ++i) samples[k][i] = std::sin(static_cast<float>(i * (k + 1))) * 0.9f;
  samples[0][5] = -1.0f;
  samples[2][17] = 2.5f;
  const auto dir = onyx::test::temp_path("quantize_calibration");
  write_sets(dir, samples, {1, 2, 4, 4});
  auto sets = tools::calibration_sets(dir);
  REQUIRE(sets.ok());
  REQUIRE(sets->size() == 3);

  onnx::ModelProto m = fp;
  auto r = tools::quantize_static(m, {}, *sets);
  INFO((r.ok() ? "" : r.error().message()));
  REQUIRE(r.ok());
  CHECK(r->quantized_nodes == 3);  // Conv, Add, GlobalAveragePool
  const auto& g = m.graph();
  // x: uint8 over [-1, 2.5]: scale 3.5 / 255, zero point round(1 / scale) = 73.
  CHECK(initializer(g, "x_scale").values<float>()[0] == static_cast<float>(3.5 / 255.0));
  CHECK(initializer(g, "x_zero_point").type() == dtype::uint8);
  CHECK(initializer(g, "x_zero_point").values<std::uint8_t>()[0] == 73);
  auto* qx = node_named(g, "x_QuantizeLinear");
  REQUIRE(qx);
  CHECK(qx->output(0) == "x_QuantizeLinear_Output");
  auto* dqx = node_named(g, "x_DequantizeLinear");
  REQUIRE(dqx);
  CHECK(dqx->output(0) == "x_DequantizeLinear_Output");
  // The Conv reads dequantized x, w and b.
  const onnx::NodeProto* c = nullptr;
  for (const auto& n : g.node())
    if (n.op_type() == "Conv") c = &n;
  REQUIRE(c);
  CHECK(c->input(0) == "x_DequantizeLinear_Output");
  CHECK(c->input(1) == "w_DequantizeLinear_Output");
  CHECK(c->input(2) == "b");  // the bias's DequantizeLinear writes the bias's name (ORT)
  CHECK(node_named(g, "b_DequantizeLinear"));
  CHECK_FALSE(has_initializer(g, "b"));
  // w per output channel, int8 symmetric, DequantizeLinear axis 0.
  auto wq = initializer(g, "w_quantized");
  CHECK(wq.type() == dtype::int8);
  auto ws = initializer(g, "w_scale");
  REQUIRE(ws.shape() == extents{3});
  for (int ch = 0; ch < 3; ++ch) {
    float m_abs = 0;
    for (int i = 0; i < 18; ++i) m_abs = std::max(m_abs, std::fabs(w[ch * 18 + i]));
    CHECK(ws.values<float>()[ch] == static_cast<float>(2.0 * m_abs / 254.0));
  }
  auto* dqw = node_named(g, "w_DequantizeLinear");
  REQUIRE(dqw);
  REQUIRE(dqw->attribute_size() == 1);
  CHECK(dqw->attribute(0).i() == 0);
  // b int32 at scale x_scale * w_scale.
  auto bq = initializer(g, "b_quantized");
  CHECK(bq.type() == dtype::int32);
  auto bs = initializer(g, "b_quantized_scale");
  for (int ch = 0; ch < 3; ++ch) {
    CHECK(bs.values<float>()[ch] == initializer(g, "x_scale").values<float>()[0] * ws.values<float>()[ch]);
    CHECK(bq.values<std::int32_t>()[ch] ==
          static_cast<std::int32_t>(std::nearbyint(std::vector<float>{0.2f, -0.1f, 0.05f}[ch] / bs.values<float>()[ch])));
  }
  // Relu's input takes Relu's range: the Conv output's zero point is 0.
  CHECK(initializer(g, conv + "_zero_point").values<std::uint8_t>()[0] == 0);
  CHECK(initializer(g, conv + "_scale").values<float>()[0] == initializer(g, relu + "_scale").values<float>()[0]);
  // The constant c of Add: uint8 over its own range.
  CHECK(initializer(g, "c_quantized").type() == dtype::uint8);
  // The graph output keeps its name, written by its DequantizeLinear.
  auto* dqo = node_named(g, pool + "_DequantizeLinear");
  REQUIRE(dqo);
  CHECK(dqo->output(0) == pool);
  auto* qo = node_named(g, pool + "_QuantizeLinear");
  REQUIRE(qo);
  CHECK(qo->input(0) == pool + "_QuantizeLinear_Input");

  // Runs; near the float model (within a few output steps).
  std::vector<named_value> in{{"x", tensor::from<float>(samples[1], {1, 2, 4, 4})}};
  auto got = floats(run(m, in)[0]), want = floats(run(fp, in)[0]);
  const float step = initializer(g, pool + "_scale").values<float>()[0];
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::fabs(got[i] - want[i]) <= 4 * step);
}

TEST_CASE("quantize_static: percentile calibration drops outliers; per-tensor option; errors") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 2001});
  b.output(b.node("Sigmoid", {x}));
  std::vector<std::vector<float>> samples(2, std::vector<float>(2001));
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < 2001; ++i) samples[k][i] = static_cast<float>(i) / 1000.0f - 1.0f;  // [-1, 1]
  samples[1][7] = 100.0f;  // one outlier in 4002 values
  const auto dir = onyx::test::temp_path("quantize_percentile");
  write_sets(dir, samples, {1, 2001});
  auto sets = tools::calibration_sets(dir);
  REQUIRE(sets.ok());

  onnx::ModelProto minmax = b.proto();
  REQUIRE(tools::quantize_static(minmax, {}, *sets).ok());
  CHECK(initializer(minmax.graph(), "x_scale").values<float>()[0] == static_cast<float>(101.0 / 255.0));

  onnx::ModelProto pct = b.proto();
  auto r = tools::quantize_static(pct, {}, *sets, {.method = tools::calibration_method::percentile, .percentile = 99.9});
  REQUIRE(r.ok());
  // 0.05 % cut from each side (2 values): the range is [-1, 1] to within a
  // bin (101 / 2048) on each side.
  const float bin = 101.0f / 2048;
  CHECK(initializer(pct.graph(), "x_scale").values<float>()[0] == Approx(2.0f / 255).margin(2 * bin / 255));

  // Errors: no sample sets; a folder with none.
  onnx::ModelProto e = b.proto();
  CHECK_FALSE(tools::quantize_static(e, {}, {}).ok());
  CHECK_FALSE(tools::calibration_sets(onyx::test::temp_path("quantize_empty_missing")).ok());
  // Per-channel needs opset 13: an opset-11 model is moved there; per tensor stays at 11.
  graph::model_builder b11{11};
  auto x11 = b11.input("x", dtype::float32, {1, 2001});
  b11.output(b11.node("MatMul", {x11, b11.initializer("W", tensor::from<float>(std::vector<float>(2001, 0.5f), {2001, 1}))}));
  onnx::ModelProto m11 = b11.proto();
  REQUIRE(tools::quantize_static(m11, {}, *sets).ok());
  CHECK(m11.opset_import(0).version() == 13);
  CHECK(initializer(m11.graph(), "W_scale").shape() == extents{1});
  onnx::ModelProto t11 = b11.proto();
  REQUIRE(tools::quantize_static(t11, {}, *sets, {.per_channel = false}).ok());
  CHECK(t11.opset_import(0).version() == 11);
  CHECK(initializer(t11.graph(), "W_scale").shape() == extents{});
}

TEST_CASE("lift_to_opset13: the ops whose form changed, rewritten; outputs unchanged; errors") {
  // One op of each kind that changed between opsets 11 and 13, at opset 11.
  graph::model_builder b{11};
  auto x = b.input("x", dtype::float32, {2, 3, 4});
  // A constant under the name the Unsqueeze's axes would take: the lift picks another.
  b.initializer("n0_axes", tensor::from<float>({7.0f}, {1}));
  auto u = b.node("Unsqueeze", {x}, {{"axes", std::vector<std::int64_t>{0}}});          // [1,2,3,4]
  auto q = b.node("Squeeze", {u}, {{"axes", std::vector<std::int64_t>{0}}});            // [2,3,4]
  auto parts = b.node("Split", {q}, {{"axis", 2}, {"split", std::vector<std::int64_t>{1, 3}}}, 2);
  auto sum = b.node("ReduceSum", {parts[1]}, {{"axes", std::vector<std::int64_t>{2}}, {"keepdims", 1}});  // [2,3,1]
  auto last = b.node("Softmax", {x}, {{"axis", 2}});       // the last axis: the same meaning at 13
  auto mid = b.node("LogSoftmax", {x}, {{"axis", 1}});     // rows of 12 at 11, columns of 3 at 13
  auto dflt = b.node("Hardmax", {x});                      // default axis 1 at 11, -1 at 13
  auto drop = b.node("Dropout", {last}, {{"ratio", 0.25f}});
  for (const auto& y : {parts[0], sum, drop, mid, dflt}) b.output(y);
  onnx::ModelProto m = b.proto();
  std::vector<float> xs(24);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::sin(static_cast<float>(i) * 1.7f) * 3;
  std::vector<named_value> in{{"x", value(tensor::from<float>(xs, {2, 3, 4}))}};
  const auto before = run(m, in);

  REQUIRE(tools::lift_to_opset13(m, {}).ok());
  CHECK(m.opset_import(0).version() == 13);
  CHECK(m.ir_version() >= 7);
  CHECK(initializer(m.graph(), "n0_axes").values<float>()[0] == 7.0f);  // untouched
  std::set<std::string> names;
  for (const auto& i : m.graph().initializer()) CHECK(names.insert(i.name()).second);
  for (const auto& n : m.graph().node())
    for (const auto& o : n.output()) CHECK(names.insert(o).second);
  for (const char* op : {"Unsqueeze", "Squeeze", "Split", "ReduceSum", "Dropout"}) {
    INFO(op);
    const onnx::NodeProto* n = nullptr;
    for (const auto& k : m.graph().node())
      if (k.op_type() == op) n = &k;
    REQUIRE(n);
    CHECK(n->input_size() == 2);  // the attribute is now a constant input
    for (const auto& a : n->attribute()) CHECK(a.name() != "axes");
  }
  // The LogSoftmax at axis 1 and the Hardmax with the default axis run flattened;
  // the Softmax on the last axis stays one node.
  const auto ops = ops_of(m.graph());
  CHECK(std::count(ops.begin(), ops.end(), "Flatten") == 2);
  CHECK(std::count(ops.begin(), ops.end(), "Reshape") == 2);
  CHECK(std::count(ops.begin(), ops.end(), "Softmax") == 1);

  const auto after = run(m, in);
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    INFO("output " << i);
    CHECK(after[i].as_tensor().shape() == before[i].as_tensor().shape());
    CHECK(floats(after[i]) == floats(before[i]));  // the same arithmetic in the same order
  }
  // Lifting twice changes nothing.
  const std::string once = m.SerializeAsString();
  REQUIRE(tools::lift_to_opset13(m, {}).ok());
  CHECK(m.SerializeAsString() == once);

  // Refused: an op opset 13 no longer has, named.
  graph::model_builder u9{9};
  auto ux = u9.input("x", dtype::float32, {1, 1, 2, 2});
  u9.output(u9.node("Upsample", {ux, u9.initializer("s", tensor::from<float>({1, 1, 2, 2}, {4}))}));
  onnx::ModelProto um = u9.proto();
  auto r = tools::lift_to_opset13(um, {});
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("Upsample") != std::string::npos);
}

TEST_CASE("convert_float16: narrow weights, and keep_io_types' Casts at the boundary") {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {2, 3});
  auto y = b.node("Mul", {x, b.initializer("k", tensor::from<float>({0.1f, 70000.0f, -2.5f}, {3}))});
  auto z = b.node("Relu", {y});
  b.output(y, dtype::float32, {2, 3});
  b.output(z, dtype::float32, {2, 3});
  const onnx::ModelProto fp = b.proto();

  onnx::ModelProto narrow = fp;
  auto n = tools::convert_float16(narrow, {});
  REQUIRE(n.ok());
  CHECK(*n == 1);
  CHECK(narrow.graph().input(0).type().tensor_type().elem_type() == onnx::TensorProto::FLOAT16);
  auto k = initializer(narrow.graph(), "k");
  REQUIRE(k.type() == dtype::float16);
  CHECK(to_float(k.values<float16_t>()[1]) == 65504.0f);  // clamped to float16's largest finite value
  CHECK(to_float(k.values<float16_t>()[0]) == to_float(to_float16(0.1f)));

  onnx::ModelProto kept = fp;
  REQUIRE(tools::convert_float16(kept, {}, {.keep_io_types = true}).ok());
  const auto& g = kept.graph();
  CHECK(g.input(0).type().tensor_type().elem_type() == onnx::TensorProto::FLOAT);
  CHECK(g.output(0).type().tensor_type().elem_type() == onnx::TensorProto::FLOAT);
  CHECK(g.output(1).type().tensor_type().elem_type() == onnx::TensorProto::FLOAT);
  CHECK(ops_of(g) == std::vector<std::string>{"Cast", "Mul", "Relu", "Cast", "Cast"});
  auto* in_cast = node_named(g, "graph_input_cast0");
  REQUIRE(in_cast);
  CHECK(in_cast->input(0) == "x");
  CHECK(in_cast->output(0) == "graph_input_cast_0");
  CHECK(in_cast->attribute(0).i() == onnx::TensorProto::FLOAT16);
  // Mul reads the cast input and writes graph_output_cast_0, which Relu reads too.
  CHECK(g.node(1).input(0) == "graph_input_cast_0");
  CHECK(g.node(1).output(0) == "graph_output_cast_0");
  CHECK(g.node(2).input(0) == "graph_output_cast_0");
  auto* out_cast = node_named(g, "graph_output_cast1");
  REQUIRE(out_cast);
  CHECK(out_cast->input(0) == "graph_output_cast_1");
  CHECK(out_cast->output(0) == z);
  CHECK(out_cast->attribute(0).i() == onnx::TensorProto::FLOAT);

  // Runs on float32 inputs; within float16's precision of the float model.
  const std::vector<float> xs{1.0f, 1e-3f, -0.5f, 3.0f, -2e-3f, 0.25f};
  std::vector<named_value> in{{"x", tensor::from<float>(xs, {2, 3})}};
  auto got = run(kept, in), want = run(fp, in);
  for (std::size_t o = 0; o < 2; ++o) {
    REQUIRE(got[o].as_tensor().type() == dtype::float32);
    const auto a = floats(got[o]), e = floats(want[o]);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const float ref = i % 3 == 1 ? e[i] * 65504.0f / 70000.0f : e[i];  // the clamped weight
      CHECK(a[i] == Approx(ref).epsilon(2e-3).margin(1e-6));
    }
  }
}

TEST_CASE("quantize_static: elementwise ops computed from one value stay in float between their neighbours' QDQ") {
  // x -> Conv -> hardswish written out (h * Clip(h + 3, 0, 6) / 6) -> Mul(a) -> Conv -> y
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 2, 5, 5});
  auto f = [&](const std::string& n, float v) { return b.initializer(n, tensor::scalar(v)); };
  auto h = b.node("Conv", {x, b.initializer("w1", test::random_tensor({3, 2, 1, 1}, -1, 1, 7))});
  auto clip = b.node("Clip", {b.node("Add", {h, f("three", 3.0f)}), f("lo", 0.0f), f("hi", 6.0f)});
  auto hs = b.node("Mul", {f("a", 0.7f), b.node("Div", {b.node("Mul", {h, clip}), f("six", 6.0f)})});
  b.output(b.node("Conv", {hs, b.initializer("w2", test::random_tensor({2, 3, 1, 1}, -1, 1, 8))}));
  const onnx::ModelProto fp = b.proto();
  std::vector<std::vector<float>> samples(4, std::vector<float>(50));
  for (std::size_t k = 0; k < samples.size(); ++k)
    for (std::size_t i = 0; i < 50; ++i) samples[k][i] = std::sin(static_cast<float>(i * (k + 2))) * 3.0f;
  const auto dir = onyx::test::temp_path("quantize_region");
  write_sets(dir, samples, {1, 2, 5, 5});
  auto sets = tools::calibration_sets(dir);
  REQUIRE(sets.ok());
  for (bool float_inputs : {false, true}) {
    INFO("float_region_inputs " << float_inputs);
    onnx::ModelProto m = fp;
    tools::static_quantize_options opt;
    opt.float_region_inputs = float_inputs;
    auto r = tools::quantize_static(m, {}, *sets, opt);
    INFO((r.ok() ? "" : r.error().message()));
    REQUIRE(r.ok());
    CHECK(r->quantized_nodes == 2);  // the Convs; not the Add or the Muls
    std::map<std::string, int> count;
    for (const auto& op : ops_of(m.graph())) ++count[op];
    // x, the region's end (the second Conv's input), the second Conv's output;
    // without float_region_inputs, the first Conv's output (the region's start) too
    CHECK(count["QuantizeLinear"] == (float_inputs ? 3 : 4));
    CHECK(count["Add"] == 1);
    CHECK(count["Mul"] == 2);
    // onyx runs the region as one table between two QLinearConvs, or (its
    // input in float) as one float pass after an int8 convolution with a
    // float epilogue; within a few output steps of the float model.
    auto s = session::open_bytes(m.SerializeAsString(), {.threads = 1});
    REQUIRE(s.ok());
    std::map<std::string, int> ran;
    for (const auto& n : (*s)->nodes()) ++ran[n.op];
    if (!float_inputs) {
      CHECK(ran["onyx.fused.QLinearLookup"] == 1);
      CHECK(ran["QLinearConv"] == 2);
    } else {
      CHECK(ran["onyx.fused.ConvIntegerToFloat"] == 1);
      CHECK(ran["onyx.fused.Elementwise"] == 1);
      CHECK(ran["QLinearConv"] == 1);
    }
    CHECK(ran["Mul"] == 0);
    std::vector<named_value> in{{"x", tensor::from<float>(samples[1], {1, 2, 5, 5})}};
    auto got = floats(run(m, in)[0]), want = floats(run(fp, in)[0]);
    REQUIRE(got.size() == want.size());
    float top = 0;
    for (float v : want) top = std::max(top, std::fabs(v));
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::fabs(got[i] - want[i]) <= 0.05f * top);
  }
}

TEST_CASE("quantize_static: BatchNormalization folded, depthwise channels equalized, exactly in float") {
  // x -> Conv 1x1 (channels of very different sizes) -> BatchNormalization -> depthwise Conv 3x3
  //   -> Mul(a) -> Add(b per channel) -> Conv 1x1 -> y
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 2, 6, 6});
  tensor w1 = test::random_tensor({4, 2, 1, 1}, -1, 1, 11);
  const float sizes[] = {1.0f, 0.01f, 8.0f, 0.1f};
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 2; ++i) w1.data<float>()[c * 2 + i] *= sizes[c];
  auto c1 = b.node("Conv", {x, b.initializer("w1", w1)});
  auto bn = b.node("BatchNormalization", {c1, b.initializer("gamma", test::random_tensor({4}, 0.5, 2, 12)),
                                          b.initializer("beta", test::random_tensor({4}, -0.1, 0.1, 13)),
                                          b.initializer("mean", test::random_tensor({4}, -0.1, 0.1, 14)),
                                          b.initializer("var", test::random_tensor({4}, 0.5, 1.5, 15))});
  auto dw = b.node("Conv", {bn, b.initializer("w2", test::random_tensor({4, 1, 3, 3}, -1, 1, 16)),
                            b.initializer("b2", test::random_tensor({4}, -0.1, 0.1, 17))},
                   {{"group", std::int64_t{4}}, {"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  auto affine = b.node("Add", {b.node("Mul", {dw, b.initializer("a", tensor::scalar(0.9f))}),
                               b.initializer("shift", test::random_tensor({4, 1, 1}, -0.05, 0.05, 18))});
  b.output(b.node("Conv", {affine, b.initializer("w3", test::random_tensor({2, 4, 1, 1}, -1, 1, 19))}));
  const onnx::ModelProto fp = b.proto();
  std::vector<std::vector<float>> samples(4, std::vector<float>(72));
  for (std::size_t k = 0; k < samples.size(); ++k)
    for (std::size_t i = 0; i < 72; ++i) samples[k][i] = std::sin(static_cast<float>(i * (k + 3) + k));
  const auto dir = onyx::test::temp_path("quantize_equalize");
  write_sets(dir, samples, {1, 2, 6, 6});
  auto sets = tools::calibration_sets(dir);
  REQUIRE(sets.ok());
  std::vector<named_value> in{{"x", tensor::from<float>(samples[2], {1, 2, 6, 6})}};
  const auto want = floats(run(fp, in)[0]);

  // Nothing quantized: the rewrite alone, which must not change the outputs.
  onnx::ModelProto eq = fp;
  REQUIRE(tools::quantize_static(eq, {}, *sets, {.op_types = {"Gemm"}}).ok());
  std::map<std::string, int> count;
  for (const auto& op : ops_of(eq.graph())) ++count[op];
  CHECK(count["BatchNormalization"] == 0);
  CHECK(count["Mul"] == 2);  // the model's and the one undoing the depthwise output's scaling
  const auto same = floats(run(eq, in)[0]);
  REQUIRE(same.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(same[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));

  // Quantized: closer to float with the equalization than without.
  const auto error = [&](bool equalize) {
    onnx::ModelProto m = fp;
    auto r = tools::quantize_static(m, {}, *sets, {.equalize = equalize});
    REQUIRE(r.ok());
    const auto got = floats(run(m, in)[0]);
    double e = 0;
    for (std::size_t i = 0; i < got.size(); ++i) e += (got[i] - want[i]) * (got[i] - want[i]);
    return std::sqrt(e);
  };
  const double with = error(true), without = error(false);
  INFO("error with " << with << ", without " << without);
  CHECK(with < 0.7 * without);  // 0.55 against 0.97 when written
}

TEST_CASE("quantize_static: target_cosine leaves the most sensitive convs in float until the outputs reach it") {
  // Two 3x3 Convs; a sample with one large value widens the first conv's
  // input range so its int8 steps are coarse.
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 2, 4, 4});
  std::vector<float> w1(3 * 2 * 9), w2(2 * 3 * 9);
  for (std::size_t i = 0; i < w1.size(); ++i) w1[i] = std::cos(static_cast<float>(i) * 0.7f) * 0.3f;
  for (std::size_t i = 0; i < w2.size(); ++i) w2[i] = std::sin(static_cast<float>(i) * 1.3f) * 0.4f;
  const std::vector<std::int64_t> pads{1, 1, 1, 1};
  auto c1 = b.node("Conv", {x, b.initializer("w1", tensor::from<float>(w1, {3, 2, 3, 3}))}, {{"pads", pads}});  // n0
  auto r1 = b.node("Relu", {c1});                                                                                 // n1
  auto c2 = b.node("Conv", {r1, b.initializer("w2", tensor::from<float>(w2, {2, 3, 3, 3}))}, {{"pads", pads}});  // n2
  b.output(c2);
  const onnx::ModelProto fp = b.proto();
  std::vector<std::vector<float>> samples(3, std::vector<float>(32));
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < 32; ++i) samples[k][i] = std::sin(static_cast<float>(i * (k + 2))) * 0.5f;
  samples[1][7] = 40.0f;
  const auto dir = onyx::test::temp_path("quantize_target");
  write_sets(dir, samples, {1, 2, 4, 4});
  auto sets = tools::calibration_sets(dir);
  REQUIRE(sets.ok());

  // The cosine of the quantized model's outputs to the float model's, averaged
  // over the sets, computed here from the two models' runs.
  const auto cosine_to_float = [&](const onnx::ModelProto& q) {
    double sum = 0;
    for (const auto& s : samples) {
      const std::vector<named_value> in{{"x", tensor::from<float>(s, {1, 2, 4, 4})}};
      const auto a = floats(run(fp, in)[0]), c = floats(run(q, in)[0]);
      double ab = 0, aa = 0, cc = 0;
      for (std::size_t i = 0; i < a.size(); ++i) ab += a[i] * c[i], aa += a[i] * a[i], cc += c[i] * c[i];
      sum += ab / std::sqrt(aa * cc);
    }
    return sum / static_cast<double>(samples.size());
  };
  const auto weight_is_float = [](const onnx::GraphProto& g, const std::string& conv) {
    const auto* n = node_named(g, conv);
    REQUIRE(n);
    return n->input(1) == (conv == "n0" ? "w1" : "w2");
  };

  SECTION("a target already met: everything quantized") {
    onnx::ModelProto m = fp;
    auto r = tools::quantize_static(m, {}, *sets, {.target_cosine = 0.5});
    REQUIRE(r.ok());
    CHECK(r->quantized_nodes == 2);
    CHECK(r->cosine == r->cosine_all_quantized);
    CHECK(r->cosine == Approx(cosine_to_float(m)).margin(1e-9));
    CHECK_FALSE(weight_is_float(m.graph(), "n0"));
    CHECK_FALSE(weight_is_float(m.graph(), "n2"));
  }
  SECTION("an unreachable target: max_float_nodes convs left in float, the named ones") {
    onnx::ModelProto m = fp;
    auto r = tools::quantize_static(m, {}, *sets, {.target_cosine = 1.0, .max_float_nodes = 1});
    REQUIRE(r.ok());
    CHECK(r->quantized_nodes == 1);
    CHECK(r->cosine > r->cosine_all_quantized);
    CHECK(r->cosine < 1.0);
    CHECK(r->cosine == Approx(cosine_to_float(m)).margin(1e-9));
    const bool first = weight_is_float(m.graph(), "n0"), second = weight_is_float(m.graph(), "n2");
    CHECK(first != second);
    bool named = false;
    for (const auto& note : r->notes) named |= note.find(first ? "'n0'" : "'n2'") != std::string::npos;
    CHECK(named);
  }
}
