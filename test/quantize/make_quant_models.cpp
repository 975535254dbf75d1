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
#include <cstdio>
#include <filesystem>
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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_quant_models OUT_DIR\n");
    return 2;
  }
  return mlp(argv[1]) || cnn(argv[1]);
}
