// onyx/registry/prebuilt.hpp: registries whose kernels were compiled elsewhere.
//
// `registry<Ops, Backends>` instantiates every kernel in the translation unit
// that uses it: right for a trimmed, header-only build. The full preset is
// too large for one TU (the registry TU has a 30 s budget), so the prebuilt
// library splits it: each kernel header is compiled in a TU of its own that
// explicitly instantiates `prebuilt_kernels<Op, B>` for the ops whose kernels
// it specializes (cmake/kernels.cmake), and the registry TU links to them:
//
//   using all = prebuilt_registry<all_ops, backend_list<cpu>>;
//
// The registry TU still parses the kernel headers (to know which ops have a
// kernel on which backend) but instantiates none of them.
#pragma once

#include "onyx/registry/registry.hpp"

namespace onyx {

/// The kernel table of (Op, B), defined in the TU that compiles its kernel.
template <class Op, class B> struct prebuilt_kernels {
  static std::span<const kernel_entry> entries();
};

namespace registry_detail {

template <class Op, class B> std::span<const kernel_entry> linked_entries() {
  if constexpr (has_kernel<Op, B>)
    return prebuilt_kernels<Op, B>::entries();
  else
    return {};
}

template <class Op, class... Bs>
inline const std::array<backend_kernels, sizeof...(Bs)> linked_kernels_v{
    backend_kernels{&backend_info_v<Bs>, linked_entries<Op, Bs>()}...};

}  // namespace registry_detail

template <class OpList, class BackendList> struct prebuilt_registry;

template <class... Ops, class... Backends> struct prebuilt_registry<op_list<Ops...>, backend_list<Backends...>> {
  static_assert(sizeof...(Backends) > 0, "a registry needs at least one backend");
  static constexpr registry_detail::op_checks<Ops...> checks{};

  static constexpr std::array<op_info, sizeof...(Ops)> ops{registry_detail::make_op_info<Ops, Backends...>(
      std::span<const backend_kernels>(registry_detail::linked_kernels_v<Ops, Backends...>))...};
  static_assert(registry_detail::ranges_disjoint(ops),
                "two listed ops share a name and domain with overlapping opset ranges");

  static constexpr std::array<const backend_info*, sizeof...(Backends)> backends{
      &registry_detail::backend_info_v<Backends>...};

  static op_table table() { return op_table{std::span<const op_info>(ops), std::span<const backend_info* const>(backends)}; }
};

}  // namespace onyx
