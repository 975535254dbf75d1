// onyx-run: run a model once or many times and report its outputs and latency.
//
//   onyx-run [MODEL] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...
//            [--threads N] [--warmup W] [--runs R] [--output-dir DIR] [--dump-stages DIR]
//            [--keep-float16] [--dim SYMBOL=N]... [--optimization none|basic|extended|all]
//            [--save-optimized FILE.onnx] [--profile FILE.json] [--profile-summary]
//            [--timeout SECONDS] [--max-allocation MIB]
//
// Inputs not given are generated: floats uniform in [0,1) from a fixed seed,
// integers 0, bools false; symbolic dims are 1 unless --shape sets them
// (`--shape NAME=scalar` for rank 0). Without MODEL it runs the bundled
// ResNet-50. With --output-dir, output i is written to DIR/output_i.pb (a
// TensorProto, or for a sequence or map the SequenceProto / MapProto of the
// ONNX test data format). With
// --dump-stages, the graph is written as text after each pipeline stage:
// DIR/00_load.txt, 01_normalize.txt, 02_infer.txt, then 03_<pass>.txt, ...
// one per optimization pass (onyx/graph/dump.hpp). --keep-float16 turns off
// the pass that runs float16/bfloat16 regions in float32 (each such op then
// converts its own inputs and outputs), for comparisons. --dim fixes a
// symbolic input dim by name; --optimization picks ONNX Runtime's level of
// passes; --save-optimized writes the optimized model (.onnx, fused ops in
// onyx's domain); --profile writes a Chrome trace (chrome://tracing,
// Perfetto) of the session's creation and every kernel call, as
// ONYX_PROFILE_FILE=FILE does for any program; --profile-summary prints
// kernel time per op type of the timed runs (not the warm-up), sorted by
// share; a node on the GPU is timed until the GPU has run it. --timeout ends
// a run that takes longer with an error (run_options::timeout);
// --max-allocation caps a single tensor (session_options::max_allocation_bytes,
// default the physical memory).
//
// Prints `session: created in X ms, peak RSS so far Y MiB` (loading and
// preparing the model: session::open; the peak resident set after it), one
// line per output, then `latency: median ...` over the timed runs. The
// command line is onyx/cli/run.hpp's, shared with trimmed executables.
#include "onyx/cli/run.hpp"
#include "onyx/graph/tensor_proto.hpp"
#include "onyx/session.hpp"
#if defined(ONYX_HAVE_CUDA)
#include "onyx/cuda_session.hpp"
#endif

#ifndef ONYX_DEFAULT_MODEL
#define ONYX_DEFAULT_MODEL "examples/models/resnet50.onnx"
#endif

namespace {

const char* usage =
    "usage: onyx-run [MODEL] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...\n"
    "                [--threads N] [--warmup W] [--runs R] [--output-dir DIR] [--dump-stages DIR]\n"
    "                [--keep-float16] [--dim SYMBOL=N]... [--optimization none|basic|extended|all]\n"
    "                [--save-optimized FILE.onnx] [--profile FILE.json] [--profile-summary] [--list-nodes]\n"
    "                [--timeout SECONDS] [--max-allocation MIB] [--backend cpu|cuda]\n";

onyx::result<onyx::value> read_input(const onyx::io_info& in, const std::string& file) {
  auto kind = in.type.kind == onyx::value_kind::sequence ? onyx::graph::proto_kind::sequence
              : in.type.kind == onyx::value_kind::map    ? onyx::graph::proto_kind::map
              : in.type.optional                         ? onyx::graph::proto_kind::optional
                                                         : onyx::graph::proto_kind::tensor;
  return onyx::graph::read_value_file(file, kind);
}

onyx::status write_output(const onyx::tensor& t, const std::string& path, const std::string& name) {
  return onyx::graph::write_tensor_file(t, path, name);
}

onyx::status write_value(const onyx::value& v, const std::string& path, const std::string& name) {
  return onyx::graph::write_value_file(v, path, name);
}

}  // namespace

int main(int argc, char** argv) {
  // --backend cpu|cuda: where nodes run (cuda: the GPU, with CPU fallback).
  std::vector<char*> args(argv, argv + argc);
  bool gpu = false;
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    if (std::string_view(args[i]) != "--backend") continue;
    const std::string_view b = args[i + 1];
    if (b == "cuda") {
#if defined(ONYX_HAVE_CUDA)
      gpu = true;
#else
      return onyx::cli::fail("onyx-run", "this build has no CUDA backend (configure with -DONYX_CUDA=ON)");
#endif
    } else if (b != "cpu") {
      return onyx::cli::fail("onyx-run", "--backend is cpu or cuda, not '" + std::string(b) + "'");
    }
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    break;
  }
  auto o = onyx::cli::parse_args(static_cast<int>(args.size()), args.data(), usage);
  if (!o.ok()) return onyx::cli::fail("onyx-run", o.error().message());
  const std::string model = o->model.empty() ? ONYX_DEFAULT_MODEL : o->model;
  return onyx::cli::run(
      "onyx-run", *o,
      [&](const onyx::session_options& so) -> onyx::result<std::unique_ptr<onyx::session_core>> {
#if defined(ONYX_HAVE_CUDA)
        if (gpu) return onyx::cuda_session::open(model, so);
#endif
        (void)gpu;
        return onyx::session::open(model, so);
      },
      read_input, write_output, write_value);
}
