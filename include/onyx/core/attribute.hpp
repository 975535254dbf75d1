// onyx/core/attribute.hpp: node attributes, independent of protobuf.
//
// The loader turns each AttributeProto into an `attribute`; op structs then
// parse them into their typed `attributes` aggregate through a declarative
// field table (`field("alpha", &attributes::alpha)`), once per node at load.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "onyx/core/status.hpp"
#include "onyx/core/tensor.hpp"
#include "onyx/core/value_type.hpp"

namespace onyx {

namespace graph {
struct graph;  // subgraph bodies (If, Loop, Scan)
}

struct attribute {
  std::string name;
  std::variant<std::int64_t, float, std::string, tensor, std::shared_ptr<const graph::graph>, std::vector<std::int64_t>,
               std::vector<float>, std::vector<std::string>, std::vector<tensor>,
               std::vector<std::shared_ptr<const graph::graph>>, value_type>
      data;  // value_type: a TYPE_PROTO attribute
};

/// One entry of an op's attribute table: the spec's name and the member it fills.
template <class Attrs, class Member> struct field {
  std::string_view name;
  Member Attrs::*member;
  bool required = false;
};
template <class Attrs, class Member> field(std::string_view, Member Attrs::*) -> field<Attrs, Member>;
template <class Attrs, class Member> field(std::string_view, Member Attrs::*, bool) -> field<Attrs, Member>;

namespace attribute_detail {

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};

template <class M> status assign(M& out, const attribute& a) {
  auto wrong = [&] { return status(errc::invalid_model, "attribute '" + a.name + "' has the wrong type"); };
  if constexpr (is_optional<M>::value) {
    typename M::value_type v{};
    ONYX_TRY(assign(v, a));
    out = std::move(v);
    return ok();
  } else if constexpr (std::is_same_v<M, float>) {
    if (auto* f = std::get_if<float>(&a.data)) return out = *f, ok();
    if (auto* i = std::get_if<std::int64_t>(&a.data)) return out = static_cast<float>(*i), ok();
    return wrong();
  } else if constexpr (std::is_integral_v<M>) {
    if (auto* i = std::get_if<std::int64_t>(&a.data)) return out = static_cast<M>(*i), ok();
    return wrong();
  } else if constexpr (std::is_same_v<M, std::vector<std::int64_t>> || std::is_same_v<M, std::vector<std::string>> ||
                       std::is_same_v<M, std::string> || std::is_same_v<M, tensor> ||
                       std::is_same_v<M, std::shared_ptr<const graph::graph>> || std::is_same_v<M, std::vector<tensor>> ||
                       std::is_same_v<M, value_type>) {
    if (auto* v = std::get_if<M>(&a.data)) return out = *v, ok();
    return wrong();
  } else if constexpr (std::is_same_v<M, std::vector<float>>) {
    if (auto* v = std::get_if<std::vector<float>>(&a.data)) return out = *v, ok();
    if (auto* i = std::get_if<std::vector<std::int64_t>>(&a.data)) {
      out.assign(i->begin(), i->end());
      return ok();
    }
    return wrong();
  } else {
    static_assert(sizeof(M) == 0, "unsupported attribute member type");
  }
}

}  // namespace attribute_detail

/// Fills `Attrs` (defaults first) from the node's attributes by its field table.
/// Attributes the table does not name are ignored; missing required ones fail.
template <class Attrs> result<Attrs> parse_attributes(const std::vector<attribute>& given) {
  Attrs out{};
  status st;
  if constexpr (requires { Attrs::fields; }) {
    std::apply(
        [&](const auto&... f) {
          auto one = [&](const auto& fld) {
            if (!st.ok()) return;
            for (const auto& a : given)
              if (a.name == fld.name) {
                st = attribute_detail::assign(out.*(fld.member), a);
                return;
              }
            if (fld.required) st = status(errc::invalid_model, "missing required attribute '" + std::string(fld.name) + "'");
          };
          (one(f), ...);
        },
        Attrs::fields);
  }
  if (!st.ok()) return st;
  return out;
}

}  // namespace onyx
