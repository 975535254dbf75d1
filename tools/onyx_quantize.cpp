// onyx-quantize: a float32 ONNX model rewritten to int8 the way ONNX
// Runtime's quantizer writes it (include/onyx/tools/quantize.hpp).
//
//   onyx-quantize dynamic IN.onnx OUT.onnx [--per-channel] [--reduce-range]
//                 [--weight-type int8|uint8] [--op-types MatMul,Conv] [--exclude NODE,...]
//   onyx-quantize static IN.onnx OUT.onnx --calibrate DIR [--calibrate DIR]...
//                 [--method minmax|percentile] [--percentile P] [--per-tensor]
//                 [--op-types Conv,MatMul,...] [--exclude NODE,...] [--threads N] [--no-equalize]
//                 [--float-region-inputs] [--target-cosine C] [--max-float-nodes N]
//   onyx-quantize float16 IN.onnx OUT.onnx [--keep-io-types] [--bfloat16]
//
// --calibrate DIR: a folder of input_<i>.pb (input i of the model), or one
// whose test_data_set_*/ folders hold them. Prints what was quantized, the
// quantization step of each quantized graph output (static), and the nodes
// left in float. --no-equalize: static quantization without folding
// BatchNormalization into Conv and equalizing depthwise convolutions'
// channels first. --float-region-inputs: a Conv's output that only an
// elementwise region left in float reads stays in float (one rounding fewer
// than ORT's form; slower in onyx, see static_quantize_options).
// --target-cosine C: Conv / MatMul / Gemm nodes, the most sensitive first,
// stay in float (at most --max-float-nodes, default 8) until the outputs on
// the calibration sets reach a mean cosine C to the float model's. The
// float16 mode is onyx-convert-float16's conversion
// (include/onyx/tools/float16.hpp).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/tools/float16.hpp"
#include "onyx/tools/quantize.hpp"

namespace {

const char* usage =
    "usage: onyx-quantize dynamic IN.onnx OUT.onnx [--per-channel] [--reduce-range]\n"
    "                     [--weight-type int8|uint8] [--op-types MatMul,Conv] [--exclude NODE,...]\n"
    "       onyx-quantize static IN.onnx OUT.onnx --calibrate DIR [--calibrate DIR]...\n"
    "                     [--method minmax|percentile] [--percentile P] [--per-tensor]\n"
    "                     [--op-types Conv,MatMul,...] [--exclude NODE,...] [--threads N] [--no-equalize]\n"
    "                     [--float-region-inputs] [--target-cosine C] [--max-float-nodes N]\n"
    "       onyx-quantize float16 IN.onnx OUT.onnx [--keep-io-types] [--bfloat16]\n";

int fail(const std::string& msg) {
  std::fprintf(stderr, "onyx-quantize: %s\n", msg.c_str());
  return 1;
}

std::set<std::string> split(const std::string& s) {
  std::set<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) out.insert(part);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    std::fputs(usage, stdout);
    return 0;
  }
  if (args.size() < 3 || (args[0] != "dynamic" && args[0] != "static" && args[0] != "float16"))
    return fail(std::string("expected a mode (dynamic, static or float16) and two paths\n") + usage);
  const bool dynamic = args[0] == "dynamic";
  const std::filesystem::path in = args[1], out = args[2];
  if (args[0] == "float16") {
    onyx::tools::float16_options fopt;
    for (std::size_t i = 3; i < args.size(); ++i) {
      if (args[i] == "--keep-io-types") fopt.keep_io_types = true;
      else if (args[i] == "--bfloat16") fopt.to = onyx::dtype::bfloat16;
      else return fail("unknown option " + args[i] + " for float16\n" + usage);
    }
    onnx::ModelProto m;
    if (auto s = onyx::graph::read_proto_file(in, m); !s.ok()) return fail(s.message());
    auto n = onyx::tools::convert_float16(m, in.parent_path(), fopt);
    if (!n.ok()) return fail(in.string() + ": " + n.error().message());
    if (auto s = onyx::graph::write_proto_file(out, m); !s.ok()) return fail(s.message());
    std::printf("%s: %d float32 tensors converted to %s%s\n", out.string().c_str(), *n,
                std::string(onyx::name(fopt.to)).c_str(), fopt.keep_io_types ? " (float32 inputs and outputs kept)" : "");
    return 0;
  }
  onyx::tools::dynamic_quantize_options dopt;
  onyx::tools::static_quantize_options sopt;
  std::vector<std::filesystem::path> sets;
  for (std::size_t i = 3; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
    if (a == "--per-channel" && dynamic) {
      dopt.per_channel = true;
    } else if (a == "--reduce-range" && dynamic) {
      dopt.reduce_range = true;
    } else if (a == "--per-tensor" && !dynamic) {
      sopt.per_channel = false;
    } else if (a == "--no-equalize" && !dynamic) {
      sopt.equalize = false;
    } else if (a == "--float-region-inputs" && !dynamic) {
      sopt.float_region_inputs = true;
    } else if (a == "--weight-type" && dynamic) {
      auto v = next();
      if (!v || (*v != "int8" && *v != "uint8")) return fail("--weight-type expects int8 or uint8");
      dopt.weight_type = *v == "int8" ? onyx::dtype::int8 : onyx::dtype::uint8;
    } else if (a == "--op-types" || a == "--exclude") {
      auto v = next();
      if (!v) return fail(a + " needs a value");
      (a == "--op-types" ? (dynamic ? dopt.op_types : sopt.op_types) : (dynamic ? dopt.nodes_to_exclude : sopt.nodes_to_exclude)) =
          split(*v);
    } else if (a == "--calibrate" && !dynamic) {
      auto v = next();
      if (!v) return fail("--calibrate needs a folder");
      auto found = onyx::tools::calibration_sets(*v);
      if (!found.ok()) return fail(found.error().message());
      sets.insert(sets.end(), found->begin(), found->end());
    } else if (a == "--method" && !dynamic) {
      auto v = next();
      if (!v || (*v != "minmax" && *v != "percentile")) return fail("--method expects minmax or percentile");
      sopt.method = *v == "minmax" ? onyx::tools::calibration_method::min_max : onyx::tools::calibration_method::percentile;
    } else if ((a == "--percentile" || a == "--threads" || a == "--target-cosine" || a == "--max-float-nodes") &&
               !dynamic) {
      auto v = next();
      char* end = nullptr;
      double x = v ? std::strtod(v->c_str(), &end) : 0;
      if (!v || v->empty() || *end) return fail(a + " expects a number");
      if (a == "--target-cosine" && !(x > 0 && x <= 1)) return fail("--target-cosine expects a number in (0, 1]");
      if (a == "--max-float-nodes" && !(x >= 0 && x <= 1e6)) return fail("--max-float-nodes expects a count");
      if (a == "--percentile") sopt.percentile = x;
      else if (a == "--target-cosine") sopt.target_cosine = x;
      else if (a == "--max-float-nodes") sopt.max_float_nodes = static_cast<int>(x);
      else sopt.threads = static_cast<int>(x);
    } else {
      return fail("unknown option " + a + " for " + args[0] + "\n" + usage);
    }
  }
  if (!dynamic && sets.empty()) return fail("static quantization needs --calibrate DIR");

  onnx::ModelProto m;
  if (auto s = onyx::graph::read_proto_file(in, m); !s.ok()) return fail(s.message());
  auto r = dynamic ? onyx::tools::quantize_dynamic(m, in.parent_path(), dopt)
                   : onyx::tools::quantize_static(m, in.parent_path(), sets, sopt);
  if (!r.ok()) return fail(in.string() + ": " + r.error().message());
  if (auto s = onyx::graph::write_proto_file(out, m); !s.ok()) return fail(s.message());
  std::printf("%s: %d nodes quantized (%s), %d weights, %d activations", out.string().c_str(), r->quantized_nodes,
              dynamic ? "dynamic" : "QDQ", r->quantized_weights, r->quantized_activations);
  if (!dynamic) std::printf(", calibrated on %zu sample sets", sets.size());
  std::printf("\n");
  for (const auto& [name, step] : r->output_steps) std::printf("  output %s: step %g\n", name.c_str(), step);
  if (sopt.target_cosine > 0 && !dynamic)
    std::printf("  outputs' mean cosine to float on the calibration sets: %.4f (all quantized %.4f, target %.4f)\n",
                r->cosine, r->cosine_all_quantized, sopt.target_cosine);
  for (const auto& n : r->notes) std::printf("  left in float: %s\n", n.c_str());
  return 0;
}
