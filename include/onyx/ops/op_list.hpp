// onyx/ops/op_list.hpp: naming a set of ops, as a plain type list. Free of
// Hana and of the registry's machinery, so an op group header
// (`include/onyx/ops/<group>_ops.hpp`) names its list without parsing either.
#pragma once

namespace onyx {

template <class... Ops> struct op_list {};

/// Concatenation of op lists: `op_list_cat_t<core_ops, my_ops>`.
template <class... Lists> struct op_list_cat;
template <class... A> struct op_list_cat<op_list<A...>> {
  using type = op_list<A...>;
};
template <class... A, class... B, class... Rest> struct op_list_cat<op_list<A...>, op_list<B...>, Rest...> {
  using type = typename op_list_cat<op_list<A..., B...>, Rest...>::type;
};
template <class... Lists> using op_list_cat_t = typename op_list_cat<Lists...>::type;

}  // namespace onyx
