// cmake/prebuilt/session.cpp: the default session (loader, passes, planner and
// executor compiled once for programs that link onyx_runtime).
#include "onyx/session.hpp"

#include "onyx/graph/loader.hpp"

namespace onyx {

#if defined(__cpp_exceptions)
session::session(const std::filesystem::path& path, const session_options& opt) : session_core(all_ops(), opt) {
  throw_if(init_from<graph::onnx_loader>(path));
}

session::session(graph::model m, const session_options& opt) : session_core(all_ops(), opt) {
  throw_if(init(std::move(m)));
}
#endif

result<std::unique_ptr<session_core>> session::open(const std::filesystem::path& path, const session_options& opt) {
  return session_core::open<graph::onnx_loader>(path, all_ops(), opt);
}

result<std::unique_ptr<session_core>> session::open(graph::model m, const session_options& opt) {
  return session_core::open(std::move(m), all_ops(), opt);
}

}  // namespace onyx
