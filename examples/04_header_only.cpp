// 04: header-only, one compiler command, no prebuilt library, no protobuf:
//
//   g++ -std=c++20 -O2 -march=native -I PREFIX/include 04_header_only.cpp -pthread
//
// (from a source tree: -I include -I .). The op list is this program's own;
// kernels/cpu/isa/single_tu.hpp compiles the micro-kernels into this TU. The
// graph, y = GlobalAveragePool(Relu(Conv(x, w, b))), is built in C++ and
// checked against a direct computation.
#include <cmath>
#include <cstdio>

#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/isa/single_tu.hpp"
#include "kernels/cpu/pool.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/runtime/session.hpp"

namespace ops = onyx::ops;
using my_ops = onyx::registry<onyx::op_list<ops::Conv, ops::Relu, ops::GlobalAveragePool>, onyx::backend_list<onyx::cpu>>;

constexpr int C = 3, M = 4, H = 8, W = 8;

float input(int c, int h, int w) { return std::sin(0.3f * static_cast<float>(c * H * W + h * W + w)); }
float weight(int m, int c, int i, int j) { return 0.1f * static_cast<float>((m + 2 * c + 3 * i + 5 * j) % 7 - 3); }

onyx::graph::model conv_relu_pool() {
  using namespace onyx;
  auto g = std::make_shared<graph::graph>();
  const int x = g->add_value("x", {value_kind::tensor, dtype::float32, sym_shape(extents{1, C, H, W})});
  std::vector<float> wv;
  for (int m = 0; m < M; ++m)
    for (int c = 0; c < C; ++c)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) wv.push_back(weight(m, c, i, j));
  const int w = g->add_value("w"), b = g->add_value("b");
  g->values[w].constant = tensor::from(wv, {M, C, 3, 3});
  g->values[b].constant = tensor::from<float>({0.1f, -0.2f, 0.3f, 0.0f}, {M});
  const int conv = g->add_value("conv"), relu = g->add_value("relu"), y = g->add_value("y");
  g->inputs = {x};
  g->outputs = {y};
  auto node = [&](std::string op, std::vector<int> in, int out, std::vector<attribute> attrs = {}) {
    graph::node n;
    n.name = op;
    n.op_type = std::move(op);
    n.inputs = std::move(in);
    n.outputs = {out};
    n.raw_attrs = std::move(attrs);
    g->nodes.push_back(std::move(n));
  };
  node("Conv", {x, w, b}, conv, {attribute{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}});
  node("Relu", {conv}, relu);
  node("GlobalAveragePool", {relu}, y);
  graph::model m;
  m.main = std::move(g);
  m.opsets[""] = 21;
  return m;
}

int main() {
  onyx::basic_session<my_ops> s{conv_relu_pool(), {.threads = 1}};
  std::vector<float> xv;
  for (int c = 0; c < C; ++c)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w) xv.push_back(input(c, h, w));
  auto out = s.run({{"x", onyx::tensor::from(xv, {1, C, H, W})}});
  auto y = out[0].as_tensor().values<float>();
  const float bias[M] = {0.1f, -0.2f, 0.3f, 0.0f};
  for (int m = 0; m < M; ++m) {
    double sum = 0;
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w) {
        double acc = bias[m];
        for (int c = 0; c < C; ++c)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              const int hh = h + i - 1, ww = w + j - 1;
              if (hh >= 0 && hh < H && ww >= 0 && ww < W) acc += double(weight(m, c, i, j)) * input(c, hh, ww);
            }
        sum += acc > 0 ? acc : 0;
      }
    const double want = sum / (H * W);
    if (std::fabs(y[m] - want) > 1e-5 + 1e-4 * std::fabs(want)) {
      std::printf("channel %d: %g, expected %g\n", m, y[m], want);
      return 1;
    }
  }
  std::printf("header-only (%s micro-kernels): y = [%g, %g, %g, %g] as computed directly\n",
              onyx::kernels::cpu::isa::name(onyx::kernels::cpu::isa::selected()), y[0], y[1], y[2], y[3]);
  return 0;
}
