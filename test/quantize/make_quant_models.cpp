// test/quantize/make_quant_models.cpp: small float32 models for onyx-quantize's
// checks (ctest tool.quantize_*, bench/quantize/check_ort.sh).
//
//   make_quant_models OUT_DIR
//
// writes OUT_DIR/<name>/model.onnx and OUT_DIR/<name>/test_data_set_<k>/input_0.pb
// (k = 0..7, fixed seed), opset 13, weights N(0, 0.1):
//
//   mlp   x [32, 256] -> MatMul 512 -> Add -> Relu -> Gemm(transB) 128
//   cnn   x [1, 3, 32, 32] -> Conv 3x3 16 + Relu -> Conv 3x3/2 32 + Relu ->
//         MaxPool 2 -> Conv 1x1 16 -> x * Sigmoid(x); Concat with AveragePool 2
//         of the second Conv -> Add constant -> GlobalAveragePool -> Flatten
//         -> Gemm(transB) 10
//   qlinear_ops  the com.microsoft QLinear* ops on a uint8 x [1, 4, 6, 6]:
//         QLinearSigmoid, QLinearLeakyRelu, QLinearAdd with x, QLinearMul by a
//         [4, 1, 1] constant, QLinearConcat with x (other scale),
//         QLinearGlobalAveragePool, QGemm on x as [4, 36] (quantized and float
//         Y), every op's result an output (the input
//         uniform over 0..255; run as is, not quantized); qlinear_ops_s8 the
//         same in int8
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onyx/graph/model_builder.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;

std::mt19937 rng(20261124);

tensor normal(extents shape, float stddev) {
  std::normal_distribution<float> dist(0.0f, stddev);
  tensor t = tensor::zeros(dtype::float32, shape);
  for (auto& v : t.values<float>()) v = dist(rng);
  return t;
}

int save(graph::model_builder& b, const std::filesystem::path& dir, const extents& input_shape, float stddev) {
  std::filesystem::create_directories(dir);
  if (auto s = b.save(dir / "model.onnx"); !s.ok()) {
    std::fprintf(stderr, "make_quant_models: %s\n", s.message().c_str());
    return 1;
  }
  for (int k = 0; k < 8; ++k) {
    auto set = dir / ("test_data_set_" + std::to_string(k));
    std::filesystem::create_directories(set);
    if (auto s = graph::write_tensor_file(normal(input_shape, stddev), set / "input_0.pb", "x"); !s.ok()) {
      std::fprintf(stderr, "make_quant_models: %s\n", s.message().c_str());
      return 1;
    }
  }
  std::printf("wrote %s\n", (dir / "model.onnx").c_str());
  return 0;
}

int mlp(const std::filesystem::path& out) {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {32, 256});
  auto h = b.node("MatMul", {x, b.initializer("fc1.weight", normal({256, 512}, 0.1f))});
  h = b.node("Add", {h, b.initializer("fc1.bias", normal({512}, 0.1f))});
  h = b.node("Relu", {h});
  auto y = b.node("Gemm", {h, b.initializer("fc2.weight", normal({128, 512}, 0.1f)),
                           b.initializer("fc2.bias", normal({128}, 0.1f))},
                  {{"transB", 1}});
  b.output(y, dtype::float32, {32, 128});
  return save(b, out / "mlp", {32, 256}, 1.0f);
}

int cnn(const std::filesystem::path& out) {
  graph::model_builder b{13};
  auto x = b.input("x", dtype::float32, {1, 3, 32, 32});
  auto c1 = b.node("Conv", {x, b.initializer("conv1.weight", normal({16, 3, 3, 3}, 0.3f)),
                            b.initializer("conv1.bias", normal({16}, 0.1f))},
                   {{"pads", ints{1, 1, 1, 1}}});
  c1 = b.node("Relu", {c1});
  auto c2 = b.node("Conv", {c1, b.initializer("conv2.weight", normal({32, 16, 3, 3}, 0.1f)),
                            b.initializer("conv2.bias", normal({32}, 0.1f))},
                   {{"pads", ints{1, 1, 1, 1}}, {"strides", ints{2, 2}}});
  c2 = b.node("Relu", {c2});
  auto p = b.node("MaxPool", {c2}, {{"kernel_shape", ints{2, 2}}, {"strides", ints{2, 2}}});
  auto c3 = b.node("Conv", {p, b.initializer("conv3.weight", normal({16, 32, 1, 1}, 0.2f)),
                            b.initializer("conv3.bias", normal({16}, 0.1f))});
  auto swish = b.node("Mul", {c3, b.node("Sigmoid", {c3})});
  auto avg = b.node("AveragePool", {c2}, {{"kernel_shape", ints{2, 2}}, {"strides", ints{2, 2}}});
  auto cat = b.node("Concat", {swish, avg}, {{"axis", 1}});
  auto shifted = b.node("Add", {cat, b.initializer("shift", normal({48, 1, 1}, 0.1f))});
  auto gap = b.node("GlobalAveragePool", {shifted});
  auto flat = b.node("Flatten", {gap});
  auto y = b.node("Gemm", {flat, b.initializer("fc.weight", normal({10, 48}, 0.3f)),
                           b.initializer("fc.bias", normal({10}, 0.1f))},
                  {{"transB", 1}});
  b.output(y, dtype::float32, {1, 10});
  return save(b, out / "cnn", {1, 3, 32, 32}, 1.0f);
}

/// The QLinear* model in uint8, or in int8 with every zero point 128 lower.
template <class T> int qlinear_ops(const std::filesystem::path& out) {
  constexpr bool s8 = std::is_same_v<T, std::int8_t>;
  constexpr dtype type = s8 ? dtype::int8 : dtype::uint8;
  graph::model_builder b{13};
  b.import("com.microsoft", 1);
  auto x = b.input("x", type, {1, 4, 6, 6});
  auto f = [&](const std::string& name, float v) { return b.initializer(name, tensor::from<float>({v}, {})); };
  auto z = [&](const std::string& name, int v) {
    return b.initializer(name, tensor::from<T>({static_cast<T>(s8 ? v - 128 : v)}, {}));
  };
  const std::string ms = "com.microsoft";
  auto xs = f("x_scale", 0.05f), xz = z("x_zp", 128);
  auto sig = b.node({ms, "QLinearSigmoid"}, {x, xs, xz, f("sig_scale", 1.0f / 255), z("sig_zp", 0)});
  auto lrelu = b.node({ms, "QLinearLeakyRelu"}, {x, xs, xz, f("lrelu_scale", 0.04f), z("lrelu_zp", 60)},
                      {{"alpha", 0.1f}});
  auto sum = b.node({ms, "QLinearAdd"}, {lrelu, "lrelu_scale", "lrelu_zp", sig, "sig_scale", "sig_zp",
                                         f("sum_scale", 0.045f), z("sum_zp", 50)});
  tensor k = tensor::zeros(type, {4, 1, 1});
  for (int i = 0; i < 4; ++i) k.data<T>()[i] = static_cast<T>(40 + 50 * i - (s8 ? 128 : 0));
  auto prod = b.node({ms, "QLinearMul"}, {sum, "sum_scale", "sum_zp", b.initializer("k", k), f("k_scale", 0.01f),
                                          z("k_zp", 100), f("prod_scale", 0.03f), z("prod_zp", 90)});
  auto cat = b.node({ms, "QLinearConcat"}, {f("cat_scale", 0.06f), z("cat_zp", 110), prod, "prod_scale", "prod_zp", x,
                                            "x_scale", "x_zp"},
                    {{"axis", 1}});
  auto pool = b.node({ms, "QLinearGlobalAveragePool"}, {cat, "cat_scale", "cat_zp", f("pool_scale", 0.02f),
                                                        z("pool_zp", 120)});
  // QGemm on x as [4, 36]: B int8 [10, 36] (transB) per column with an int32
  // C and a quantized Y; B of x's type [36, 10] per tensor with a float Y.
  auto rows = b.node("Reshape", {x, b.initializer("rows_shape", tensor::from<std::int64_t>({4, 36}, {2}))});
  tensor w1 = tensor::zeros(dtype::int8, {10, 36}), w2 = tensor::zeros(type, {36, 10});
  std::uniform_int_distribution<int> wd(-127, 127);
  for (auto& v : w1.values<std::int8_t>()) v = static_cast<std::int8_t>(wd(rng));
  for (auto& v : w2.values<T>()) v = static_cast<T>(wd(rng) + (s8 ? 0 : 128));
  std::vector<float> w1_scale(10);
  std::vector<std::int8_t> w1_zp(10);
  std::vector<std::int32_t> bias(10);
  for (int j = 0; j < 10; ++j) w1_scale[j] = 0.002f * (j + 1), w1_zp[j] = static_cast<std::int8_t>(j - 5), bias[j] = 300 * j - 1500;
  auto qgemm = b.node({ms, "QGemm"},
                      {rows, "x_scale", "x_zp", b.initializer("w1", w1), b.initializer("w1_scale", tensor::from(w1_scale, {10})),
                       b.initializer("w1_zp", tensor::from(w1_zp, {10})), b.initializer("bias", tensor::from(bias, {10})),
                       f("qgemm_scale", 0.25f), z("qgemm_zp", 128)},
                      {{"transB", std::int64_t{1}}, {"alpha", 0.5f}});
  auto qgemm_f = b.node({ms, "QGemm"}, {rows, "x_scale", "x_zp", b.initializer("w2", w2), f("w2_scale", 0.004f),
                                        z("w2_zp", 128)});
  for (const auto& v : {sig, lrelu, sum, prod}) b.output(v, type, {1, 4, 6, 6});
  b.output(cat, type, {1, 8, 6, 6});
  b.output(pool, type, {1, 8, 1, 1});
  b.output(qgemm, type, {4, 10});
  b.output(qgemm_f, dtype::float32, {4, 10});
  const auto dir = out / (s8 ? "qlinear_ops_s8" : "qlinear_ops");
  std::filesystem::create_directories(dir / "test_data_set_0");
  if (auto s = b.save(dir / "model.onnx"); !s.ok()) return 1;
  std::uniform_int_distribution<int> d(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
  tensor in = tensor::zeros(type, {1, 4, 6, 6});
  for (auto& v : in.values<T>()) v = static_cast<T>(d(rng));
  if (auto s = graph::write_tensor_file(in, dir / "test_data_set_0" / "input_0.pb", "x"); !s.ok()) return 1;
  std::printf("wrote %s\n", (dir / "model.onnx").c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_quant_models OUT_DIR\n");
    return 2;
  }
  return mlp(argv[1]) || cnn(argv[1]) || qlinear_ops<std::uint8_t>(argv[1]) || qlinear_ops<std::int8_t>(argv[1]);
}
