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

template <class... Ops, class... Backends> struct registry<op_list<Ops...>, backend_list<Backends...>> {
  static_assert(sizeof...(Backends) > 0, "a registry needs at least one backend");
  static constexpr registry_detail::op_checks<Ops...> checks{};

  static constexpr std::array<op_info, sizeof...(Ops)> ops{registry_detail::make_op_info<Ops>(
      registry_detail::semantics_v<Ops>, std::span<const backend_kernels>(registry_detail::kernels_v<Ops, Backends...>))...};

  static constexpr std::array<const backend_info*, sizeof...(Backends)> backends{
      &registry_detail::backend_info_v<Backends>...};

  static op_table table() { return op_table{std::span<const op_info>(ops), std::span<const backend_info* const>(backends)}; }
};

}  // namespace onyx
