// onyx/registry/detail/prebuilt_definition.hpp: what a kernel TU of the
// prebuilt library compiles (see onyx/registry/prebuilt.hpp), followed by
// `template struct onyx::prebuilt_kernels<onyx::ops::X, onyx::cpu>;` for each
// op whose kernel its header specializes.
#pragma once

#include "onyx/registry/prebuilt.hpp"

namespace onyx {

template <class Op, class B> std::span<const kernel_entry> prebuilt_kernels<Op, B>::entries() {
  return std::span<const kernel_entry>(registry_detail::entries_v<Op, B>);
}

}  // namespace onyx
