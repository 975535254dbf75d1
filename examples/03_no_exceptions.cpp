// 03: onyx in a program built with -fno-exceptions.
//
// Every entry point has a status-returning form: open a session with
// basic_session::open, run it with run(inputs, outputs). Errors are values
// whose message names the node, the op and what was expected.
#include <cstdio>
#include <filesystem>

#include "kernels/cpu/add.hpp"
#include "kernels/cpu/relu.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/runtime/session.hpp"

#if defined(__cpp_exceptions)
#error "this example must be compiled with -fno-exceptions"
#endif

using small = onyx::registry<onyx::op_list<onyx::ops::Relu, onyx::ops::Add>, onyx::backend_list<onyx::cpu>>;

int main() {
  onyx::graph::model_builder b{21};
  auto x = b.input("x", onyx::dtype::float32, {"N", 4});
  b.output(b.node("Add", {b.node("Relu", {x}), x}));
  auto path = std::filesystem::temp_directory_path() / "onyx_example_03.onnx";
  if (auto st = b.save(path); !st.ok()) return std::printf("%s\n", st.message().c_str()), 1;

  auto opened = onyx::basic_session<small>::open(path);
  if (!opened.ok()) return std::printf("%s\n", opened.error().message().c_str()), 1;
  const auto& s = **opened;

  std::vector<onyx::value> outs;
  std::vector<onyx::named_value> inputs{{"x", onyx::tensor::from<float>({-1, 2, -3, 4}, {1, 4})}};
  if (auto st = s.run(inputs, outs); !st.ok()) return std::printf("%s\n", st.message().c_str()), 1;
  for (float v : outs[0].as_tensor().values<float>()) std::printf("%g ", v);
  std::printf("\n");

  // A wrong shape is an error value, not a crash.
  std::vector<onyx::named_value> bad{{"x", onyx::tensor::from<float>({1, 2, 3}, {1, 3})}};
  auto st = s.run(bad, outs);
  std::printf("wrong shape: %s\n", st.message().c_str());
  return st.ok() ? 1 : 0;
}
