// onyx/registry/detail/prebuilt_definition.hpp: what the TUs of the prebuilt
// library compile (see onyx/registry/prebuilt.hpp). A kernel TU follows it
// with `template struct onyx::prebuilt_kernels<onyx::ops::X, onyx::cpu>;` for
// each op its header specializes; an op-group TU with
// `template std::span<const onyx::op_semantics> onyx::prebuilt_ops(onyx::<group>_ops);`.
#pragma once

#include "onyx/registry/prebuilt.hpp"

namespace onyx {

template <class Op, class B> std::span<const kernel_entry> prebuilt_kernels<Op, B>::entries() {
  return std::span<const kernel_entry>(registry_detail::entries_v<Op, B>);
}

template <class Op> result<std::shared_ptr<const void>> prebuilt_op<Op>::parse(const std::vector<attribute>& a) {
  return registry_detail::parse<Op>(a);
}
template <class Op> status prebuilt_op<Op>::infer(const void* attrs, ops::infer_context& c) {
  return registry_detail::infer<Op>(attrs, c);
}
template <class Op> status prebuilt_op<Op>::expand(const void* attrs, ops::expand_context& c) {
  return registry_detail::expand<Op>(attrs, c);
}

/// Compiles the `prebuilt_op` functions of every op in the list into the TU
/// that explicitly instantiates it: the table keeps them referenced.
template <class... Ops> std::span<const op_semantics> prebuilt_ops(op_list<Ops...>) {
  static constexpr op_semantics table[] = {registry_detail::linked_semantics_v<Ops>...};
  return table;
}

}  // namespace onyx
