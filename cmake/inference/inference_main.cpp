// The program onyx_add_inference_executable builds (cmake/inference/onyx_inference.cmake):
// one model, only the kernels its optimized graph runs, no protobuf.
//
//   NAME [MODEL.onyx] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...
//        [--threads N] [--warmup W] [--runs R] [--output-dir DIR]
//
// The command line and output are onyx-run's (onyx/cli/run.hpp). The model is
// the compact form onyx-ops wrote at build time: embedded in the program
// (ONYX_EMBEDDED_MODEL), or read from ONYX_MODEL_PATH unless a path is given.
// ONYX_OPS_HEADER is onyx-ops' op list for it; its fit check runs at compile
// time, so a registry that lacks a kernel the model needs does not compile.
// It comes first: for a model without subgraphs it defines ONYX_NO_SUBGRAPHS
// before the runtime headers see it.
#include ONYX_OPS_HEADER

#include "onyx/cli/run.hpp"
#include "onyx/graph/compact.hpp"
#include "onyx/graph/tensor_file.hpp"

using model_registry = onyx_model::registry;
template struct onyx_model::fit_check<model_registry>;

#if defined(ONYX_EMBEDDED_MODEL)
extern "C" const std::byte onyx_embedded_model_begin[];
extern "C" const std::byte onyx_embedded_model_end[];
#endif

namespace {

#if defined(ONYX_EMBEDDED_MODEL)
constexpr bool takes_model = false;
const char* usage =
    "usage: PROGRAM [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...\n"
    "               [--threads N] [--warmup W] [--runs R] [--output-dir DIR]\n";
#else
constexpr bool takes_model = true;
const char* usage =
    "usage: PROGRAM [MODEL.onyx] [--input NAME=FILE.pb]... [--shape NAME=2x3x224x224]...\n"
    "               [--threads N] [--warmup W] [--runs R] [--output-dir DIR]\n";
#endif

onyx::result<onyx::value> read_input(const onyx::io_info& in, const std::string& file) {
  if (in.type.kind != onyx::value_kind::tensor)
    return onyx::status(onyx::errc::invalid_argument, "only tensor inputs can be read by this program");
  ONYX_ASSIGN(auto t, onyx::graph::read_tensor_proto_file(file));
  return onyx::value(std::move(t));
}

onyx::status write_output(const onyx::tensor& t, const std::string& path, const std::string& name) {
  return onyx::graph::write_tensor_proto_file(t, path, name);
}

onyx::result<std::unique_ptr<onyx::session_core>> open(const onyx::cli::options& o, const onyx::session_options& so) {
#if defined(ONYX_EMBEDDED_MODEL)
  (void)o;
  std::span<const std::byte> bytes(onyx_embedded_model_begin, onyx_embedded_model_end);
  ONYX_ASSIGN(auto m, onyx::graph::compact::read(bytes, nullptr, model_registry::table()));
  return onyx::session_core::open(std::move(m), model_registry::table(), so);
#else
  const std::string path = o.model.empty() ? ONYX_MODEL_PATH : o.model;
  return onyx::basic_session<model_registry>::open<onyx::graph::compact::loader>(path, so);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::string program = onyx::file_name(argv[0]);
  auto o = onyx::cli::parse_args(argc, argv, usage, takes_model);
  if (!o.ok()) return onyx::cli::fail(program, o.error().message());
  if (!o->dump_stages.empty() || o->keep_float16)
    return onyx::cli::fail(program, "--dump-stages and --keep-float16 need onyx-run: this model is already optimized");
  if (!o->profile.empty() || o->profile_summary)
    return onyx::cli::fail(program, "--profile and --profile-summary need onyx-run: this program holds no profiler");
  return onyx::cli::run(
      program, *o, [&](const onyx::session_options& so) { return open(*o, so); }, read_input, write_output);
}
