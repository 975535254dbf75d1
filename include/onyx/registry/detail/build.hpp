// onyx/registry/detail/build.hpp: compile-time construction of the tables.
//
// Boost.Hana does the linear work over the op list (the op-struct checks).
// Uniqueness and opset ranges are one constexpr sort of the ops' keys (a Hana
// set is quadratic in the list's length). The crossing with backends and type
// signatures is plain pack expansion into constexpr arrays of function
// pointers: crossing them as Hana types costs minutes at 50 ops.
#pragma once

#include <algorithm>
#include <boost/hana/all_of.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <tuple>
#include <type_traits>
#include <utility>

#include "onyx/registry/op_info.hpp"

namespace onyx {

/// An op list entry that instantiates `Op`'s kernels only for the type
/// signatures S (each as its kernel's slots order them), where a plain `Op`
/// instantiates every signature its kernels declare. onyx-ops writes such
/// lists from a model: `with_signatures<ops::Conv, sig(dtype::float32, dtype::float32)>`.
template <class Op, ops::signature... S> struct with_signatures {};

/// A type signature from its dtypes, slot by slot.
template <std::same_as<dtype>... T> constexpr ops::signature sig(T... t) {
  static_assert(sizeof...(T) <= 4, "a signature has at most four slots");
  ops::signature s{};
  s.n = static_cast<int>(sizeof...(T));
  int i = 0;
  ((s.t[i++] = t), ...);
  return s;
}

}  // namespace onyx

namespace onyx::registry_detail {

namespace hana = boost::hana;

/// What every op struct must declare.
template <class Op>
concept op_struct = requires {
  { Op::domain } -> std::convertible_to<std::string_view>;
  { Op::name } -> std::convertible_to<std::string_view>;
  { Op::since } -> std::convertible_to<int>;
  { Op::until } -> std::convertible_to<int>;
  { Op::inputs } -> std::convertible_to<ops::arity>;
  { Op::outputs } -> std::convertible_to<ops::arity>;
  typename Op::attributes;
};

template <class Op> constexpr auto signature_slots() {
  if constexpr (requires { Op::signature; })
    return Op::signature;
  else
    return std::array{ops::in(0)};
}
template <class Op> inline constexpr auto slots_v = signature_slots<Op>();

/// The cross product of a kernel's per-slot dtype sets, as signatures.
template <class K> constexpr auto signatures() {
  constexpr auto types = K::types;
  constexpr std::size_t total = [&] {
    std::size_t n = 1;
    for (auto s : types) n *= static_cast<std::size_t>(s.size());
    return n;
  }();
  std::array<ops::signature, total> out{};
  for (std::size_t i = 0; i < total; ++i) {
    std::size_t rest = i;
    out[i].n = static_cast<int>(types.size());
    for (std::size_t s = types.size(); s-- > 0;) {
      auto count = static_cast<std::size_t>(types[s].size());
      out[i].t[s] = types[s][static_cast<int>(rest % count)];
      rest /= count;
    }
  }
  return out;
}
template <class K> inline constexpr auto signatures_v = signatures<K>();

template <class Op, class B, ops::signature S> status run_thunk(const kernel_call& c) {
  return kernel<Op, B>::template run<S>(static_cast<const call<Op>&>(c));
}

template <class Op, class B, ops::signature S>
result<std::shared_ptr<const void>> prepare_thunk(const prepare_info_base& p) {
  using K = kernel<Op, B>;
  auto r = K::template prepare<S>(static_cast<const prepare_info<Op>&>(p));
  if (!r.ok()) return std::move(r).error();
  return std::shared_ptr<const void>(std::make_shared<typename K::state>(std::move(r).value()));
}

template <class Op, class B, ops::signature S> constexpr prepare_fn prepare_for() {
  if constexpr (requires { typename kernel<Op, B>::state; })
    return &prepare_thunk<Op, B, S>;
  else
    return nullptr;
}

template <class Op, class B, ops::signature S>
result<kernel_plan> plan_thunk(const plan_info_base& p) {
  auto r = kernel<Op, B>::template plan<S>(static_cast<const plan_info<Op>&>(p));
  if (!r.ok()) return std::move(r).error();
  auto&& v = std::move(r).value();
  using P = std::remove_cvref_t<decltype(v.plan)>;
  if constexpr (std::is_empty_v<P>) {  // no state: a non-null pointer that owns nothing, no allocation
    static constexpr P none{};
    return kernel_plan{std::shared_ptr<const void>(std::shared_ptr<const void>(), &none), v.scratch_bytes,
                       std::move(v.inputs_in_output), v.overwrites_input};
  } else {
    return kernel_plan{std::make_shared<const P>(std::move(v.plan)), v.scratch_bytes, std::move(v.inputs_in_output),
                       v.overwrites_input};
  }
}

template <class Op, class B, ops::signature S>
constexpr plan_fn plan_for() {
  if constexpr (requires(const plan_info<Op>& p) { kernel<Op, B>::template plan<S>(p); })
    return &plan_thunk<Op, B, S>;
  else
    return nullptr;
}

template <class Op, class B>
bool accepts_thunk(const prepare_info_base& p) {
  return kernel<Op, B>::accepts(static_cast<const prepare_info<Op>&>(p));
}

/// The node predicate of `kernel<Op, B>` (kernel_entry::accepts), or null.
template <class Op, class B>
constexpr accept_fn accepts_of() {
  if constexpr (requires(const prepare_info<Op>& p) { kernel<Op, B>::accepts(p); })
    return &accepts_thunk<Op, B>;
  else
    return nullptr;
}

/// The inputs `kernel<Op, B>` reads on the host (kernel_entry::host_inputs).
template <class Op, class B>
constexpr std::uint32_t host_inputs_of() {
  if constexpr (requires { kernel<Op, B>::host_inputs; })
    return kernel<Op, B>::host_inputs;
  else
    return 0;
}

/// The kernel entries of `Sigs` (an array of signatures, a template argument).
template <class Op, class B, auto Sigs, std::size_t... I> constexpr auto make_entries(std::index_sequence<I...>) {
  return std::array<kernel_entry, sizeof...(I)>{kernel_entry{Sigs[I].key(), Sigs[I], &run_thunk<Op, B, Sigs[I]>,
                                                             prepare_for<Op, B, Sigs[I]>(),
                                                             plan_for<Op, B, Sigs[I]>(), host_inputs_of<Op, B>(),
                                                             accepts_of<Op, B>()}...};
}

/// The signatures of `kernel<Op, B>` that `Keep` lists (every one when Keep
/// is empty: an untyped entry of an op list).
template <class Op, class B, auto Keep> constexpr auto kept_count() {
  std::size_t n = 0;
  for (const auto& s : signatures_v<kernel<Op, B>>)
    if (Keep.empty() || std::find(Keep.begin(), Keep.end(), s) != Keep.end()) ++n;
  return n;
}
template <class Op, class B, auto Keep> constexpr auto kept_signatures() {
  std::array<ops::signature, kept_count<Op, B, Keep>()> out{};
  std::size_t n = 0;
  for (const auto& s : signatures_v<kernel<Op, B>>)
    if (Keep.empty() || std::find(Keep.begin(), Keep.end(), s) != Keep.end()) out[n++] = s;
  return out;
}

template <class Op, class B, auto Keep> constexpr auto entries_for() {
  if constexpr (has_kernel<Op, B>) {
    static_assert(kernel<Op, B>::types.size() == slots_v<Op>.size(),
                  "a kernel declares one dtype set per slot of its op's signature");
    constexpr auto sigs = kept_signatures<Op, B, Keep>();
    return make_entries<Op, B, sigs>(std::make_index_sequence<sigs.size()>{});
  } else {
    return std::array<kernel_entry, 0>{};
  }
}

/// An entry of an op list: an op struct, or with_signatures<Op, signatures...>.
template <class E> struct entry_traits {
  using op = E;
  static constexpr std::array<ops::signature, 0> keep{};
  template <class... Bs> static constexpr bool all_kept() { return true; }
};
template <class Op, ops::signature... S> struct entry_traits<with_signatures<Op, S...>> {
  using op = Op;
  static constexpr std::array<ops::signature, sizeof...(S)> keep{S...};
  /// Every listed signature exists in Op's kernel on each backend that has one.
  template <class... Bs> static constexpr bool all_kept() { return (kept_on<Bs>() && ...); }
  template <class B> static constexpr bool kept_on() {
    if constexpr (!has_kernel<Op, B>) {
      return true;
    } else {
      constexpr auto& have = signatures_v<kernel<Op, B>>;
      for (const auto& s : keep)
        if (std::find(have.begin(), have.end(), s) == have.end()) return false;
      return true;
    }
  }
};
template <class E> using op_of = typename entry_traits<E>::op;

template <class E, class B> inline constexpr auto entries_v = entries_for<op_of<E>, B, entry_traits<E>::keep>();

template <class B> inline constexpr backend_info backend_info_v{
    B::name, B::device, [] {
      if constexpr (requires { &B::to_host; }) return &B::to_host;
      else return copy_fn{nullptr};
    }(),
    [] {
      if constexpr (requires { &B::from_host; }) return &B::from_host;
      else return copy_fn{nullptr};
    }(),
    [] {
      if constexpr (requires { &B::allocate; }) return &B::allocate;
      else return allocate_fn{nullptr};
    }(),
    [] {
      if constexpr (requires { &B::synchronize; }) return &B::synchronize;
      else return synchronize_fn{nullptr};
    }()};

template <class E, class... Bs> inline constexpr std::array<backend_kernels, sizeof...(Bs)> kernels_v{
    backend_kernels{&backend_info_v<Bs>, std::span<const kernel_entry>(entries_v<E, Bs>)}...};

/// An op's attributes by their field table, or by the op's own
/// `static result<attributes> parse(...)` when a typed member (an enum) has no
/// field type.
template <class Op> result<typename Op::attributes> parse_typed(const std::vector<attribute>& a) {
  if constexpr (requires { Op::parse(a); })
    return Op::parse(a);
  else
    return parse_attributes<typename Op::attributes>(a);
}
template <class Op> result<std::shared_ptr<const void>> parse(const std::vector<attribute>& a) {
  auto r = parse_typed<Op>(a);
  if (!r.ok()) return std::move(r).error();
  return std::shared_ptr<const void>(std::make_shared<typename Op::attributes>(std::move(r).value()));
}
template <class Op> status infer(const void* attrs, ops::infer_context& c) {
  return Op::infer(*static_cast<const typename Op::attributes*>(attrs), c);
}
template <class Op> status expand(const void* attrs, ops::expand_context& c) {
  return Op::expand(*static_cast<const typename Op::attributes*>(attrs), c);
}

template <class Op> concept has_expand = requires { &Op::expand; };

/// The op's semantics, instantiated in this TU (header-only registries).
template <class Op> inline constexpr op_semantics semantics_v{&parse<Op>, &infer<Op>, [] {
                                                                 if constexpr (has_expand<Op>) return &expand<Op>;
                                                                 else return expand_fn{nullptr};
                                                               }()};

/// Whether an op's outputs are a function of its inputs and attributes: true
/// unless the op struct declares `static constexpr bool deterministic = false`
/// (random generators), which constant folding then leaves alone.
template <class Op> constexpr bool deterministic() {
  if constexpr (requires { Op::deterministic; })
    return Op::deterministic;
  else
    return true;
}

template <class Op>
constexpr op_info make_op_info(const op_semantics& s, std::span<const backend_kernels> kernels) {
  return op_info{Op::domain, Op::name, Op::since,   Op::until, Op::inputs, Op::outputs,
                 std::span<const ops::slot>(slots_v<Op>), s.parse, s.infer, s.expand, kernels, deterministic<Op>()};
}

/// What identifies an op to the loader: its name, domain and opset range.
struct op_key {
  std::string_view domain, name;
  int since, until;
};

enum class listing { fine, duplicate, overlap };

/// Whether any two listed ops share a name and domain with the same or with
/// overlapping opset ranges. Sorting first keeps it O(n log n) in constexpr
/// evaluation (the full preset lists several hundred ops); after sorting by
/// since, any overlap shows between neighbours.
template <class... Ops> constexpr listing check_listing() {
  std::array<op_key, sizeof...(Ops)> keys{op_key{Ops::domain, Ops::name, Ops::since, Ops::until}...};
  std::sort(keys.begin(), keys.end(), [](const op_key& a, const op_key& b) {
    return std::tie(a.domain, a.name, a.since, a.until) < std::tie(b.domain, b.name, b.since, b.until);
  });
  for (std::size_t i = 1; i < keys.size(); ++i) {
    const op_key &a = keys[i - 1], &b = keys[i];
    if (a.domain != b.domain || a.name != b.name) continue;
    if (a.since == b.since && a.until == b.until) return listing::duplicate;
    if (b.since <= a.until) return listing::overlap;
  }
  return listing::fine;
}

template <class... Ops> struct op_checks {
  static_assert(hana::all_of(hana::tuple_t<Ops...>, [](auto t) { return hana::bool_c<op_struct<typename decltype(t)::type>>; }),
                "every listed op must be an op struct (domain, name, since, until, inputs, outputs, attributes)");
  static constexpr listing verdict = check_listing<Ops...>();
  static_assert(verdict != listing::duplicate, "an op is listed twice (or two listed ops have the same name, domain and opsets)");
  static_assert(verdict != listing::overlap, "two listed ops share a name and domain with overlapping opset ranges");
};

}  // namespace onyx::registry_detail
