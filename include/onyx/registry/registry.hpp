// onyx/registry/registry.hpp: the compile-time operator registry.
//
//   using my_registry = onyx::registry<onyx::op_list<ops::Conv, ops::Relu>,
//                                      onyx::backend_list<onyx::cpu>>;
//
// The list is the build: only listed ops are known to the loader, and only
// their kernels on the listed backends are instantiated. Backends are listed
// in preference order; a node runs on the first backend with a kernel for its
// type signature. `table()` is the runtime view (`op_table`) the loader,
// planner and executor work from.
#pragma once

#include "onyx/registry/detail/build.hpp"
#include "onyx/ops/op_list.hpp"

namespace onyx {

template <class... Backends> struct backend_list {};

template <class OpList, class BackendList> struct registry;

template <class... Entries, class... Backends> struct registry<op_list<Entries...>, backend_list<Backends...>> {
  static_assert(sizeof...(Backends) > 0, "a registry needs at least one backend");
  static constexpr registry_detail::op_checks<registry_detail::op_of<Entries>...> checks{};
  static_assert((registry_detail::entry_traits<Entries>::template all_kept<Backends...>() && ...),
                "a with_signatures<Op, ...> entry names a type signature that Op's kernel does not have");

  static constexpr std::array<op_info, sizeof...(Entries)> ops{registry_detail::make_op_info<registry_detail::op_of<Entries>>(
      registry_detail::semantics_v<registry_detail::op_of<Entries>>,
      std::span<const backend_kernels>(registry_detail::kernels_v<Entries, Backends...>))...};

  static constexpr std::array<const backend_info*, sizeof...(Backends)> backends{
      &registry_detail::backend_info_v<Backends>...};

  static op_table table() { return op_table{std::span<const op_info>(ops), std::span<const backend_info* const>(backends)}; }
};

/// One kernel a model needs: the op (by domain, name and the version of its
/// op struct) and its type signature. onyx-ops writes a model's list.
struct required_kernel {
  std::string_view domain, name;
  int opset;
  ops::signature sig;
};

/// Whether `Registry` has a kernel for `r` on any of its backends: the
/// compile-time fit check of a model's manifest (`static_assert(provides<R>(...))`).
template <class Registry> constexpr bool provides(const required_kernel& r) {
  for (const auto& op : Registry::ops)
    if (op.domain == r.domain && op.name == r.name && op.since <= r.opset && r.opset <= op.until)
      for (const auto& bk : op.kernels)
        for (const auto& e : bk.entries)
          if (e.sig == r.sig) return true;
  return false;
}

}  // namespace onyx
