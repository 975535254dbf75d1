// python/tests/make_test_models.cpp: the small models the Python, C API and
// ctypes tests run, written with graph::model_builder into the folder given.
//
//   affine.onnx     y = x * 2 + 1, x float32 [batch, 3]; with metadata (producer,
//                   version, doc strings, two custom entries)
//   conv_relu.onnx  Relu(Conv(x, w, b)), x float32 [N, 2, 5, 5], w [4, 2, 3, 3]
//                   (w[o,c,i,j] = (o + 1) * 0.1 - c * 0.05 + i * 0.01 - j * 0.02, b[o] = o - 1.5)
//   types.onnx      int64 + 1, Not(bool), Identity(string): dtypes through the bindings
#include <cstdio>

#include "onyx/graph/model_builder.hpp"

using namespace onyx;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_models DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  auto check = [](status s) {
    if (!s.ok()) {
      std::fprintf(stderr, "make_test_models: %s\n", s.message().c_str());
      std::exit(1);
    }
  };
  {
    graph::model_builder b{17};
    auto x = b.input("x", dtype::float32, {"batch", 3});
    auto two = b.initializer("two", tensor::from<float>({2.0f}, {}));
    auto one = b.initializer("one", tensor::from<float>({1.0f}, {}));
    auto y = b.node("Add", {b.node("Mul", {x, two}), one});
    b.output(y, dtype::float32, {"batch", 3});
    auto& p = b.proto();
    p.set_producer_name("onyx-tests");
    p.set_producer_version("1.2");
    p.set_domain("org.onyx.tests");
    p.set_model_version(7);
    p.set_doc_string("y = 2x + 1");
    p.mutable_graph()->set_name("affine");
    p.mutable_graph()->set_doc_string("an affine map");
    for (auto [k, v] : {std::pair{"author", "onyx"}, std::pair{"purpose", "tests"}}) {
      auto* e = p.add_metadata_props();
      e->set_key(k);
      e->set_value(v);
    }
    check(b.save(dir / "affine.onnx"));
  }
  {
    graph::model_builder b{17};
    auto x = b.input("x", dtype::float32, {"N", 2, 5, 5});
    std::vector<float> w(4 * 2 * 3 * 3), bias(4);
    for (int o = 0; o < 4; ++o)
      for (int c = 0; c < 2; ++c)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            w[((o * 2 + c) * 3 + i) * 3 + j] = (o + 1) * 0.1f - c * 0.05f + i * 0.01f - j * 0.02f;
    for (int o = 0; o < 4; ++o) bias[o] = o - 1.5f;
    auto wi = b.initializer("w", tensor::from<float>(w, {4, 2, 3, 3}));
    auto bi = b.initializer("b", tensor::from<float>(bias, {4}));
    auto conv = b.node("Conv", {x, wi, bi}, {{"kernel_shape", std::vector<std::int64_t>{3, 3}}});
    b.output(b.node("Relu", {conv}), dtype::float32, {"N", 4, 3, 3});
    check(b.save(dir / "conv_relu.onnx"));
  }
  {
    graph::model_builder b{17};
    auto i = b.input("i", dtype::int64, {2, 2});
    auto f = b.input("flag", dtype::boolean, {3});
    auto s = b.input("s", dtype::string, {"n"});
    auto one = b.initializer("one", tensor::from<std::int64_t>({1}, {}));
    b.output(b.node("Add", {i, one}), dtype::int64, {2, 2});
    b.output(b.node("Not", {f}), dtype::boolean, {3});
    b.output(b.node("Identity", {s}), dtype::string, {"n"});
    check(b.save(dir / "types.onnx"));
  }
  std::printf("wrote affine.onnx, conv_relu.onnx, types.onnx to %s\n", dir.c_str());
  return 0;
}
