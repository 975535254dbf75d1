// onyx's Conv kernel on the convolutions of ResNet-50 and on the depthwise
// ones of ShuffleNet and PP-OCRv4's detector, timed through a session.
//
//   conv_bench
//   conv_bench --benchmark_filter='dw_'
//
// Each row is a one-node model (Conv, weights and bias as initializers, so
// prepare packs them exactly as in a real model) built with
// graph::model_builder, opened as an onyx::session with T threads and timed
// by session.run: the figure includes the run's fixed cost (input checks,
// the output allocation), a few microseconds, which the smallest depthwise
// rows feel. Counters: GFLOP/s = 2 * N * Cout * (Cin / group) * kh * kw *
// Hout * Wout per run, and peak_% of the FMA peak measured in the same
// process (bench/fp32_peak.hpp).
//
// Row names: <model>_<Cin>x<H>x<W>_<k>x<k>_s<stride>_<Cout>[_dw]/threads:T.
// The shapes come from the models' graphs after inference
// (onyx-run MODEL --dump-stages DIR): ResNet-50 v1 (light_resnet50.onnx, the
// stride-2 convs included), light_shufflenet.onnx's depthwise 3x3s, and
// real/ppocrv4_det at 1x3x320x320 (depthwise 3x3 and 5x5).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench/fp32_peak.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"

namespace {

using namespace onyx;

struct conv_shape {
  const char* model;
  std::int64_t cin, hw, k, stride, cout;
  bool depthwise;  // group = cin = cout

  std::int64_t group() const { return depthwise ? cin : 1; }
  std::int64_t pad() const { return k / 2; }
  std::int64_t out_hw() const { return (hw + 2 * pad() - k) / stride + 1; }
  double flops() const {
    return 2.0 * double(cout) * double(cin / group()) * double(k * k) * double(out_hw() * out_hw());
  }
  std::string name() const {
    return std::string(model) + "_" + std::to_string(cin) + "x" + std::to_string(hw) + "x" + std::to_string(hw) +
           "_" + std::to_string(k) + "x" + std::to_string(k) + "_s" + std::to_string(stride) + "_" +
           std::to_string(cout) + (depthwise ? "_dw" : "");
  }
};

const std::vector<conv_shape> shapes = {
    // ResNet-50 v1.
    {"r50", 3, 224, 7, 2, 64, false},
    {"r50", 64, 56, 1, 1, 64, false},
    {"r50", 64, 56, 3, 1, 64, false},
    {"r50", 64, 56, 1, 1, 256, false},
    {"r50", 256, 56, 1, 1, 64, false},
    {"r50", 256, 56, 1, 2, 512, false},  // projection shortcut into stage 2
    {"r50", 256, 56, 1, 2, 128, false},
    {"r50", 128, 28, 3, 1, 128, false},
    {"r50", 128, 28, 1, 1, 512, false},
    {"r50", 512, 28, 1, 1, 128, false},
    {"r50", 256, 14, 3, 1, 256, false},
    {"r50", 256, 14, 1, 1, 1024, false},
    {"r50", 1024, 14, 1, 1, 256, false},
    {"r50", 512, 7, 3, 1, 512, false},
    {"r50", 512, 7, 1, 1, 2048, false},
    {"r50", 2048, 7, 1, 1, 512, false},
    {"r50", 128, 56, 3, 2, 128, false},  // the stride-2 3x3 layers (conv_direct.hpp)
    {"r50", 256, 28, 3, 2, 256, false},
    {"r50", 512, 14, 3, 2, 512, false},
    // DenseNet-121: each layer's 3x3 growth conv (32 outputs) and a transition.
    {"densenet", 128, 56, 3, 1, 32, false},
    {"densenet", 128, 28, 3, 1, 32, false},
    {"densenet", 128, 14, 3, 1, 32, false},
    {"densenet", 128, 7, 3, 1, 32, false},
    {"densenet", 512, 28, 1, 1, 256, false},
    // SqueezeNet 1.1's stem (light_squeezenet.onnx; there unpadded).
    {"squeezenet", 3, 224, 3, 2, 64, false},
    {"vgg", 3, 224, 3, 1, 64, false},         // VGG-19's first conv (K = 27, stride 1)
    {"stem", 3, 224, 4, 4, 96, false},        // K = 48: a 4x4 patch stem (ConvNeXt's)
    {"stem", 3, 224, 5, 2, 32, false},        // K = 75: between the 3x3 and 7x7 stems
    {"squeezenet", 16, 55, 3, 1, 64, false},  // the fire modules' 3x3 expands
    {"squeezenet", 32, 27, 3, 1, 128, false},
    {"squeezenet", 64, 13, 3, 1, 256, false},
    {"inceptionv2", 64, 56, 3, 1, 192, false},  // Winograd over several blocks of tiles
    {"inceptionv2", 64, 28, 3, 1, 96, false},
    // ShuffleNet (light_shufflenet.onnx): depthwise 3x3.
    {"shufflenet", 112, 56, 3, 2, 112, true},
    {"shufflenet", 136, 28, 3, 1, 136, true},
    {"shufflenet", 272, 14, 3, 1, 272, true},
    {"shufflenet", 544, 7, 3, 1, 544, true},
    // PP-OCRv4 det at 320x320: depthwise 3x3 and 5x5.
    {"ppocrv4det", 16, 160, 3, 1, 16, true},
    {"ppocrv4det", 32, 160, 3, 2, 32, true},
    {"ppocrv4det", 48, 80, 3, 1, 48, true},
    {"ppocrv4det", 96, 40, 3, 1, 96, true},
    {"ppocrv4det", 192, 20, 5, 1, 192, true},
    {"ppocrv4det", 384, 10, 5, 1, 384, true},
};

tensor random_tensor(const extents& shape, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(element_count(shape)));
  for (auto& x : v) x = d(rng);
  return tensor::from(v, shape);
}

/// Writes the one-Conv model to a temp file, opens it, removes the file.
std::unique_ptr<session> open_conv(const conv_shape& c, int threads) {
  graph::model_builder b{21};
  auto x = b.input("x", dtype::float32, {1, c.cin, c.hw, c.hw});
  auto w = b.initializer("w", random_tensor({c.cout, c.cin / c.group(), c.k, c.k}, 2));
  auto bias = b.initializer("b", random_tensor({c.cout}, 3));
  b.output(b.node("Conv", {x, w, bias},
                  {{"kernel_shape", std::vector<std::int64_t>{c.k, c.k}},
                   {"strides", std::vector<std::int64_t>{c.stride, c.stride}},
                   {"pads", std::vector<std::int64_t>{c.pad(), c.pad(), c.pad(), c.pad()}},
                   {"group", c.group()}}));
  const auto path = std::filesystem::temp_directory_path() /
                    ("onyx_conv_bench_" + std::to_string(::getpid()) + ".onnx");
  if (!b.save(path).ok()) return nullptr;
  auto s = std::make_unique<session>(path, session_options{.threads = threads});
  std::filesystem::remove(path);
  return s;
}

void run_conv(benchmark::State& state, conv_shape c, int threads) {
  auto s = open_conv(c, threads);
  if (!s) {
    state.SkipWithError("could not write the model");
    return;
  }
  const std::vector<named_value> inputs{{"x", random_tensor({1, c.cin, c.hw, c.hw}, 1)}};
  std::vector<value> outputs;
  const double peak = onyx::bench::fp32_peak_gflops(threads);  // before the clock starts
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!s->run(inputs, outputs).ok()) {
      state.SkipWithError("run failed");
      break;
    }
    benchmark::DoNotOptimize(outputs.data());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double gflops = c.flops() * double(state.iterations()) / secs / 1e9;
  state.counters["GFLOP/s"] = gflops;
  if (peak > 0) state.counters["peak_%"] = 100.0 * gflops / peak;
}

const bool registered = [] {
  for (const conv_shape& c : shapes)
    for (int t : {1, 2})
      benchmark::RegisterBenchmark((c.name() + "/threads:" + std::to_string(t)).c_str(), run_conv, c, t)
          ->UseRealTime();
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
