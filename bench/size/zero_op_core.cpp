// The zero-op core: reads a compact model and runs it with a registry that
// lists no op (so every model is refused, naming its ops), with onyx-run's
// command line. What every trimmed program holds before its kernels.
#include "onyx/cli/run.hpp"
#include "onyx/graph/compact.hpp"
#include "onyx/graph/tensor_file.hpp"

using no_ops = onyx::registry<onyx::op_list<>, onyx::backend_list<onyx::cpu>>;

int main(int argc, char** argv) {
  auto o = onyx::cli::parse_args(argc, argv, "usage: zero_op_core MODEL.onyx\n");
  if (!o.ok()) return onyx::cli::fail("zero_op_core", o.error().message());
  return onyx::cli::run(
      "zero_op_core", *o,
      [&](const onyx::session_options& so) {
        return onyx::basic_session<no_ops>::open<onyx::graph::compact::loader>(o->model, so);
      },
      [](const onyx::io_info&, const std::string& f) -> onyx::result<onyx::value> {
        ONYX_ASSIGN(auto t, onyx::graph::read_tensor_proto_file(f));
        return onyx::value(std::move(t));
      },
      [](const onyx::tensor& t, const std::string& p, const std::string& n) {
        return onyx::graph::write_tensor_proto_file(t, p, n);
      });
}
