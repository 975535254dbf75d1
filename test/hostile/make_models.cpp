// make_hostile_models DIR: writes models that ask for absurd work, built with
// the model builder, for test/hostile/limits.sh (onyx-run under a 4 GiB
// address-space limit must end each with a clear error, never an abort).
//
//   constant_of_shape.onnx  ConstantOfShape to [10^6, 10^6] (10^12 floats)
//   expand.onnx             Expand of a [1] input to [10^6, 10^6]
//   tile.onnx               Tile of a [1000, 1000] input by [1000, 1000]
//   range.onnx              Range(0, 10^12, 1), int64
//   resize.onnx             Resize of [1, 1, 1000, 1000] by scales [1, 1, 1000, 1000]
//   constant_of_shape_8g.onnx  ConstantOfShape to [2, 2^30] (8 GiB)
//   constant_of_shape_input.onnx  ConstantOfShape whose shape is a graph input
//                                 (the size is known only at run time)
//   loop_forever.onnx       a Loop with a 10^15 trip count (for --timeout)
#include <cstdio>
#include <vector>

#include "onyx/graph/model_builder.hpp"

namespace {

using onyx::dtype;
using onyx::tensor;
using onyx::graph::model_builder;

onyx::tensor i64(std::vector<std::int64_t> v) {
  auto n = static_cast<std::int64_t>(v.size());
  return tensor::from(v, {n});
}

int save(const model_builder& b, const std::filesystem::path& p) {
  if (auto s = b.save(p); !s.ok()) {
    std::fprintf(stderr, "make_hostile_models: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_hostile_models DIR\n");
    return 2;
  }
  std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const std::int64_t M = 1000000;
  int rc = 0;
  {
    model_builder b;
    auto shape = b.initializer("shape", i64({M, M}));
    b.output(b.node("ConstantOfShape", {shape}), dtype::float32);
    rc |= save(b, dir / "constant_of_shape.onnx");
  }
  {
    // 8 GiB: under a 24 GiB machine's physical memory, over a 4 GiB ulimit.
    model_builder b;
    auto shape = b.initializer("shape", i64({2, 1024 * 1024 * 1024}));
    b.output(b.node("ConstantOfShape", {shape}), dtype::float32);
    rc |= save(b, dir / "constant_of_shape_8g.onnx");
  }
  {
    model_builder b;
    auto shape = b.input("shape", dtype::int64, {2});
    b.output(b.node("ConstantOfShape", {shape}), dtype::float32);
    rc |= save(b, dir / "constant_of_shape_input.onnx");
  }
  {
    model_builder b;
    auto x = b.input("x", dtype::float32, {1});
    auto shape = b.initializer("shape", i64({M, M}));
    b.output(b.node("Expand", {x, shape}), dtype::float32);
    rc |= save(b, dir / "expand.onnx");
  }
  {
    model_builder b;
    auto x = b.input("x", dtype::float32, {1000, 1000});
    auto reps = b.initializer("repeats", i64({1000, 1000}));
    b.output(b.node("Tile", {x, reps}), dtype::float32);
    rc |= save(b, dir / "tile.onnx");
  }
  {
    model_builder b;
    auto start = b.initializer("start", tensor::scalar<std::int64_t>(0));
    auto limit = b.initializer("limit", tensor::scalar<std::int64_t>(M * M));
    auto delta = b.initializer("delta", tensor::scalar<std::int64_t>(1));
    b.output(b.node("Range", {start, limit, delta}), dtype::int64);
    rc |= save(b, dir / "range.onnx");
  }
  {
    model_builder b;
    auto x = b.input("x", dtype::float32, {1, 1, 1000, 1000});
    auto scales = b.initializer("scales", tensor::from<float>({1.f, 1.f, 1000.f, 1000.f}, {4}));
    b.output(b.node("Resize", {x, "", scales}), dtype::float32);
    rc |= save(b, dir / "resize.onnx");
  }
  {
    // Loop(M=10^15, cond=true) { i, c, acc -> c, acc + 1 }
    model_builder b;
    auto trip = b.initializer("trip", tensor::scalar<std::int64_t>(M * M * 1000));
    auto cond = b.initializer("cond", tensor::scalar<bool>(true));
    auto acc = b.input("acc", dtype::float32, {1});
    auto body = b.subgraph("body");
    body.input("i", dtype::int64, {});
    auto c = body.input("c_in", dtype::boolean, {});
    auto a = body.input("a_in", dtype::float32, {1});
    auto one = body.constant(tensor::from<float>({1.f}, {1}));
    body.output(body.node("Identity", {c}), dtype::boolean, {});
    body.output(body.node("Add", {a, one}), dtype::float32, {1});
    b.output(b.node("Loop", {trip, cond, acc}, {{"body", std::move(body)}}), dtype::float32);
    rc |= save(b, dir / "loop_forever.onnx");
  }
  return rc;
}
