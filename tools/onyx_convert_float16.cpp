// onyx-convert-float16: a float32 ONNX model rewritten to compute in float16
// (or bfloat16), for benchmarks and tests of the narrow-float paths
// (include/onyx/tools/float16.hpp says what it converts).
//
//   onyx-convert-float16 IN.onnx OUT.onnx [--bfloat16] [--rounded-float32] [--keep-io-types]
//   onyx-convert-float16 --tensor IN.pb OUT.pb [--bfloat16] [--rounded-float32]
//
// The second form converts one TensorProto file (a test input or output).
// --rounded-float32 rounds the same tensors to float16 (bfloat16) but keeps
// them, and every type, float32: the model a float16 one computes when it
// rounds only its weights and inputs, the reference for its accuracy.
// --keep-io-types keeps float32 graph inputs and outputs, with Casts at the
// boundary.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "onyx/tools/float16.hpp"

namespace {

int fail(const std::string& msg) {
  std::fprintf(stderr, "onyx-convert-float16: %s\n", msg.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  onyx::tools::float16_options opt;
  std::vector<std::string> paths;
  const char* usage =
      "usage: onyx-convert-float16 IN.onnx OUT.onnx [--bfloat16] [--rounded-float32] [--keep-io-types]\n"
      "       onyx-convert-float16 --tensor IN.pb OUT.pb [--bfloat16] [--rounded-float32]\n";
  bool tensor_file = false;
  for (const auto& a : args) {
    if (a == "--bfloat16") {
      opt.to = onyx::dtype::bfloat16;
    } else if (a == "--rounded-float32") {
      opt.rounded_float32 = true;
    } else if (a == "--keep-io-types") {
      opt.keep_io_types = true;
    } else if (a == "--tensor") {
      tensor_file = true;
    } else if (a == "-h" || a == "--help") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a.starts_with("-")) {
      return fail("unknown option " + a + "\n" + usage);
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() != 2) return fail(std::string("expected two paths\n") + usage);
  if (tensor_file) {
    onnx::TensorProto p;
    std::ifstream in(paths[0], std::ios::binary);
    if (!in || !p.ParseFromIstream(&in)) return fail("cannot read a TensorProto from " + paths[0]);
    if (auto s = onyx::tools::convert_float16(p, opt); !s.ok()) return fail(s.message());
    std::ofstream out(paths[1], std::ios::binary);
    if (!out || !p.SerializeToOstream(&out)) return fail("cannot write " + paths[1]);
    return 0;
  }
  onnx::ModelProto m;
  {
    std::ifstream in(paths[0], std::ios::binary);
    if (!in) return fail("cannot open " + paths[0]);
    if (!m.ParseFromIstream(&in)) return fail(paths[0] + " is not an ONNX model");
  }
  auto converted = onyx::tools::convert_float16(m, std::filesystem::path(paths[0]).parent_path(), opt);
  if (!converted.ok()) return fail(converted.error().message());
  std::ofstream out(paths[1], std::ios::binary);
  if (!out || !m.SerializeToOstream(&out)) return fail("cannot write " + paths[1]);
  std::printf("%s: %d float32 tensors converted to %s\n", paths[1].c_str(), *converted,
              std::string(onyx::name(opt.to)).c_str());
  return 0;
}
