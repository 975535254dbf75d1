// onyx/registry/detail/prebuilt_definition.hpp: what a kernel TU of the
// prebuilt library compiles (see onyx/registry/prebuilt.hpp).
#pragma once

#include "onyx/registry/prebuilt.hpp"

namespace onyx {

template <class Op, class B> std::span<const kernel_entry> prebuilt_kernels<Op, B>::entries() {
  return std::span<const kernel_entry>(registry_detail::entries_v<Op, B>);
}

namespace registry_detail {

/// Instantiates prebuilt_kernels<Op, B>::entries() for every op of the list
/// whose kernel on B is visible in this TU. A kernel seen by two TUs (one
/// header including another) yields identical definitions: the linker keeps one.
template <class B, class... Ops> constexpr auto visible_entries(op_list<Ops...>) {
  using fn = std::span<const kernel_entry> (*)();
  std::array<fn, sizeof...(Ops)> out{};
  std::size_t i = 0;
  auto one = [&]<class Op>() {
    if constexpr (has_kernel<Op, B>) out[i] = &prebuilt_kernels<Op, B>::entries;
    ++i;
  };
  (one.template operator()<Ops>(), ...);
  return out;
}

}  // namespace registry_detail
}  // namespace onyx
