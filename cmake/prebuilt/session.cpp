// cmake/prebuilt/session.cpp: the default session (loader, passes, planner and
// executor compiled once for programs that link onyx_runtime).
#include "onyx/session.hpp"

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/graph/loader.hpp"

namespace onyx {

namespace {
// The micro-kernel level a profile's trace names for nodes on the CPU.
std::string cpu_isa() {
  namespace isa = kernels::cpu::isa;
  return isa::name(isa::selected());
}
}  // namespace

#if defined(__cpp_exceptions)
session::session(const std::filesystem::path& path, const session_options& opt) : session_core(all_ops(), opt) {
  set_profile_isa(cpu_isa());
  throw_if(catch_allocation_failure([&] { return init_from<graph::onnx_loader>(path); },
                                    [&] { return path.filename().string(); }));
}

session::session(graph::model m, const session_options& opt) : session_core(all_ops(), opt) {
  set_profile_isa(cpu_isa());
  throw_if(catch_allocation_failure([&] { return init(std::move(m)); },
                                    [] { return std::string("creating the session"); }));
}
#endif

result<std::unique_ptr<session_core>> session::open(const std::filesystem::path& path, const session_options& opt) {
  auto s = session_core::open<graph::onnx_loader>(path, all_ops(), opt);
  if (s.ok()) (*s)->set_profile_isa(cpu_isa());
  return s;
}

result<std::unique_ptr<session_core>> session::open(graph::model m, const session_options& opt) {
  auto s = session_core::open(std::move(m), all_ops(), opt);
  if (s.ok()) (*s)->set_profile_isa(cpu_isa());
  return s;
}

result<std::unique_ptr<session_core>> session::open_bytes(std::string_view bytes, const session_options& opt) {
  auto m = catch_allocation_failure([&] { return graph::load_model_from_bytes(bytes, all_ops()); },
                                    [] { return std::string("loading the model"); });
  if (!m.ok()) return std::move(m).error();
  return open(std::move(m).value(), opt);
}

}  // namespace onyx
