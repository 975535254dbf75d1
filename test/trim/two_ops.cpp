// Trimming, proven: this TU includes the headers of every op and every CPU
// kernel, but its registry lists two ops. check_symbols.sh then reads the
// object's symbols: only Relu's and Add's kernels may have been instantiated.
#include <filesystem>

#include "kernels/cpu/all_kernels.hpp"
#include "onyx/all_ops.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/runtime/session.hpp"
#include "relu_plus_x.hpp"

using two_ops = onyx::registry<onyx::op_list<onyx::ops::Relu, onyx::ops::Add>, onyx::backend_list<onyx::cpu>>;

int main() {
  onyx::graph::model_builder b{21};
  auto x = b.input("x", onyx::dtype::float32, {2, 3});
  auto y = b.node("Add", {b.node("Relu", {x}), x});
  b.output(y);
  auto path = std::filesystem::temp_directory_path() / "onyx_two_ops.onnx";
  if (!b.save(path).ok()) return 1;

  onyx::basic_session<two_ops> s{path, {.threads = 1}};
  return check_relu_plus_x(s, "from a two-op registry");
}
