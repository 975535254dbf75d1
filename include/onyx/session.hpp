// onyx/session.hpp: the default session, over every op onyx has, on the CPU.
//
//   #include <onyx/session.hpp>
//   onyx::session s{"model.onnx"};
//   auto outs = s.run({{"input", onyx::tensor::from(data, {1, 3, 224, 224})}});
//   s.inputs(); s.outputs();      // names, dtypes, symbolic shapes
//
// Compiled once into the onyx_runtime library (cmake/prebuilt/all_ops.cpp), so
// including this header costs no kernel instantiation and reaches no protobuf. For a trimmed build,
// use `basic_session<registry<...>>` from onyx/runtime/session.hpp.
#pragma once

#include "onyx/runtime/session.hpp"

namespace onyx {

class session : public session_core {
 public:
#if defined(__cpp_exceptions)
  /// Loads and prepares `path` with every registered op; throws onyx::error.
  explicit session(const std::filesystem::path& path, const session_options& opt = {});
  /// Prepares a model already in graph form.
  explicit session(graph::model m, const session_options& opt = {});
#endif
  /// Status-returning forms, for -fno-exceptions builds.
  static result<std::unique_ptr<session_core>> open(const std::filesystem::path& path,
                                                    const session_options& opt = {});
  static result<std::unique_ptr<session_core>> open(graph::model m, const session_options& opt = {});
  /// Loads a serialized ModelProto held in memory (external data is looked
  /// for in the current directory) and prepares it.
  static result<std::unique_ptr<session_core>> open_bytes(std::string_view bytes, const session_options& opt = {});
  /// The table of every op and backend the library holds.
  static op_table all_ops();
};

}  // namespace onyx
