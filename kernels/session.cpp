// kernels/session.cpp: the default session (loader, passes, planner and
// executor compiled once for programs that link onyx_runtime).
#include "onyx/session.hpp"

namespace onyx {

#if defined(__cpp_exceptions)
session::session(const std::filesystem::path& path, const session_options& opt) : session_core(all_ops(), opt) {
  throw_if(init(path));
}
#endif

result<std::unique_ptr<session_core>> session::open(const std::filesystem::path& path, const session_options& opt) {
  return session_core::open(path, all_ops(), opt);
}

}  // namespace onyx
