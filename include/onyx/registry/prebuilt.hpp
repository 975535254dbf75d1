// onyx/registry/prebuilt.hpp: registries whose code was compiled elsewhere.
//
// `registry<Ops, Backends>` instantiates every kernel and every op's parse,
// infer and expand in the translation unit that uses it: right for a trimmed,
// header-only build. The full preset is too large for one TU (the registry TU
// has a 30 s budget), so the prebuilt library splits it (cmake/kernels.cmake):
//
//   - each kernel header is compiled in a TU of its own that explicitly
//     instantiates `prebuilt_kernels<Op, B>` for the ops it specializes;
//   - each op group (include/onyx/ops/<group>_ops.hpp) is compiled in a TU of
//     its own that instantiates `prebuilt_op<Op>` for the ops it lists;
//   - the registry TU only takes the addresses of those functions:
//
//       using all = prebuilt_registry<all_ops, backend_list<cpu>>;
//
// The registry TU still includes the kernel headers (to know which ops have a
// kernel on which backend) but instantiates none of their code.
#pragma once

#include "onyx/registry/registry.hpp"

namespace onyx {

/// The kernel table of (Op, B), defined in the TU that compiles its kernel.
template <class Op, class B> struct prebuilt_kernels {
  static std::span<const kernel_entry> entries();
};

/// An op's load-time functions, defined in the TU that compiles its group.
/// `expand` exists only for ops that declare one.
template <class Op> struct prebuilt_op {
  static result<std::shared_ptr<const void>> parse(const std::vector<attribute>&);
  static status infer(const void* attrs, ops::infer_context&);
  static status expand(const void* attrs, ops::expand_context&);
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

template <class Op> inline constexpr op_semantics linked_semantics_v{&prebuilt_op<Op>::parse, &prebuilt_op<Op>::infer, [] {
                                                                       if constexpr (has_expand<Op>) return &prebuilt_op<Op>::expand;
                                                                       else return expand_fn{nullptr};
                                                                     }()};

}  // namespace registry_detail

template <class OpList, class BackendList> struct prebuilt_registry;

template <class... Ops, class... Backends> struct prebuilt_registry<op_list<Ops...>, backend_list<Backends...>> {
  static_assert(sizeof...(Backends) > 0, "a registry needs at least one backend");
  static constexpr registry_detail::op_checks<Ops...> checks{};

  static constexpr std::array<op_info, sizeof...(Ops)> ops{registry_detail::make_op_info<Ops>(
      registry_detail::linked_semantics_v<Ops>,
      std::span<const backend_kernels>(registry_detail::linked_kernels_v<Ops, Backends...>))...};

  static constexpr std::array<const backend_info*, sizeof...(Backends)> backends{
      &registry_detail::backend_info_v<Backends>...};

  static op_table table() { return op_table{std::span<const op_info>(ops), std::span<const backend_info* const>(backends)}; }
};

}  // namespace onyx
