// An installed onyx's prebuilt library: every op, models from .onnx files.
#include <cstdio>

#include <onyx/onyx.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  onyx::session s{argv[1], {.threads = 1}};
  const auto& in = s.inputs()[0];
  onyx::extents e;
  for (const auto& d : in.type.shape.dims) e.push_back(d.known() ? d.value() : 1);
  auto out = s.run({{in.name, onyx::tensor::zeros(in.type.type, e)}});
  std::printf("uses_prebuilt: %s -> %s\n", in.name.c_str(), onyx::sym_shape(out[0].as_tensor().shape()).str().c_str());
  return 0;
}
