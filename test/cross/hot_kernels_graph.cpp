// A protobuf-free program whose graph, built in C++ as onyx's IR, passes
// through every hot micro-kernel of the ISA table: a 3x3 Conv large enough
// for Winograd F(4x4, 3x3) (its input and output transforms and the GEMM
// tile), Relu, a depthwise 3x3 Conv with stride 2 (the dwconv row kernel),
// Sigmoid (logistic), MaxPool and AveragePool (the pool row kernel), a 1x1
// Conv (one GEMM), Tanh, Flatten, Gemm at one row (the GEMV path), Erf and
// Softmax (exp and the softmax row). Inputs and weights come from a fixed
// integer generator, so every build sees the same numbers.
//
// It prints each output as "name count" and then one value a line (%.9g),
// and the ISA level and GEMM tile it ran on to stderr.
// The arm64 build runs it under qemu at each ISA level and
// test/cross/compare_outputs.sh holds that text to the x86 build's.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/erf.hpp"
#include "kernels/cpu/flatten.hpp"
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/relu.hpp"
#include "kernels/cpu/sigmoid.hpp"
#include "kernels/cpu/softmax.hpp"
#include "kernels/cpu/tanh.hpp"
#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/erf.hpp"
#include "onyx/ops/flatten.hpp"
#include "onyx/ops/gemm.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/sigmoid.hpp"
#include "onyx/ops/softmax.hpp"
#include "onyx/ops/tanh.hpp"
#include "onyx/runtime/session.hpp"

namespace {

using namespace onyx;
using ints = std::vector<std::int64_t>;

using hot_ops = registry<op_list<ops::Conv, ops::Relu, ops::Sigmoid, ops::MaxPool, ops::AveragePool, ops::Tanh,
                                 ops::Flatten, ops::Gemm, ops::Erf, ops::Softmax>,
                         backend_list<cpu>>;

/// Values in [-scale, scale) from a 32-bit linear congruential generator.
std::vector<float> fixed_values(std::int64_t n, std::uint32_t seed, float scale) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<float>(s >> 8) / 8388608.0f - 1.0f);
  }
  return v;
}

std::int64_t count(const extents& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

struct graph_builder {
  std::shared_ptr<graph::graph> g = std::make_shared<graph::graph>();
  std::uint32_t seed = 1;

  int weight(const std::string& name, extents shape, float scale) {
    const int id = g->add_value(name);
    g->values[id].constant = tensor::from(fixed_values(count(shape), seed++, scale), shape);
    return id;
  }
  int node(const std::string& op, std::vector<int> inputs, std::vector<attribute> attrs = {}) {
    const int out = g->add_value(op + "_" + std::to_string(g->nodes.size()));
    graph::node n;
    n.name = g->values[out].name;
    n.op_type = op;
    n.inputs = std::move(inputs);
    n.outputs = {out};
    n.raw_attrs = std::move(attrs);
    g->nodes.push_back(std::move(n));
    return out;
  }
};

graph::model hot_kernels_model() {
  graph_builder b;
  const int x = b.g->add_value("x", {value_kind::tensor, dtype::float32, sym_shape(extents{1, 16, 32, 32})});
  b.g->inputs = {x};
  const attribute pad1{"pads", ints{1, 1, 1, 1}};
  const int c1 = b.node("Conv", {x, b.weight("w1", {32, 16, 3, 3}, 0.25f), b.weight("b1", {32}, 0.1f)},
                        {{"kernel_shape", ints{3, 3}}, pad1});
  const int r1 = b.node("Relu", {c1});
  const int dw = b.node("Conv", {r1, b.weight("wd", {32, 1, 3, 3}, 0.5f), b.weight("bd", {32}, 0.1f)},
                        {{"group", std::int64_t{32}}, {"kernel_shape", ints{3, 3}}, {"strides", ints{2, 2}}, pad1});
  const int s1 = b.node("Sigmoid", {dw});
  const int mp = b.node("MaxPool", {s1}, {{"kernel_shape", ints{3, 3}}, {"strides", ints{2, 2}}, pad1});
  const int ap = b.node("AveragePool", {mp}, {{"kernel_shape", ints{2, 2}}, {"strides", ints{2, 2}}});
  const int c2 = b.node("Conv", {ap, b.weight("w2", {24, 32, 1, 1}, 0.3f), b.weight("b2", {24}, 0.1f)});
  const int th = b.node("Tanh", {c2});
  const int fl = b.node("Flatten", {th});
  const int fc = b.node("Gemm", {fl, b.weight("wg", {384, 40}, 0.1f), b.weight("bg", {40}, 0.1f)});
  const int ef = b.node("Erf", {fc});
  const int sm = b.node("Softmax", {ef});
  b.g->outputs = {c1, ap, th, sm};
  graph::model m;
  m.main = std::move(b.g);
  m.opsets[""] = 21;
  return m;
}

}  // namespace

int main() {
  const auto& isa = kernels::cpu::isa::active();
  std::fprintf(stderr, "ISA level %s, GEMM %s\n", kernels::cpu::isa::name(isa.isa), isa.gemm_name);
  basic_session<hot_ops> s{hot_kernels_model(), {.threads = 1}};
  const auto x = fixed_values(16 * 32 * 32, 99, 1.0f);
  const auto outputs = s.run({{"x", tensor::from(x, {1, 16, 32, 32})}});
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto values = outputs[i].as_tensor().values<float>();
    std::printf("%s %zu\n", s.outputs()[i].name.c_str(), values.size());
    for (float v : values) std::printf("%.9g\n", v);
  }
  return 0;
}
