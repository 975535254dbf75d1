// kernel<ops::CategoryMapper, cpu>: prepare hashes both directions (first
// pair wins); run looks every element up.
#pragma once

#include <unordered_map>

#include "onyx/ops/category_mapper.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::category_detail {

struct tables {
  std::unordered_map<std::string, std::int64_t> to_int;
  std::unordered_map<std::int64_t, std::string> to_string;
};

}  // namespace onyx::kernels::cpu::category_detail

namespace onyx {

template <>
struct kernel<ops::CategoryMapper, cpu> {
  static constexpr std::array types{ops::CategoryMapper::T1};
  using state = kernels::cpu::category_detail::tables;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::CategoryMapper>& p) {
    state t;
    const auto& a = p.attrs();
    if (a.cats_int64s.size() != a.cats_strings.size())
      return status(errc::invalid_graph, "cats_int64s and cats_strings have different lengths");
    for (std::size_t i = 0; i < a.cats_strings.size(); ++i) {
      t.to_int.try_emplace(a.cats_strings[i], a.cats_int64s[i]);
      t.to_string.try_emplace(a.cats_int64s[i], a.cats_strings[i]);
    }
    return t;
  }
  template <ops::signature S>
  static status run(const call<ops::CategoryMapper>& c) {
    const state& t = c.state<state>();
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    tensor& y = c.output(0);
    if constexpr (S[0] == dtype::string) {
      const std::string* xp = x.data<std::string>();
      std::int64_t* yp = y.data<std::int64_t>();
      for (std::int64_t i = 0; i < x.size(); ++i) {
        auto it = t.to_int.find(xp[i]);
        yp[i] = it == t.to_int.end() ? a.default_int64 : it->second;
      }
    } else {
      const std::int64_t* xp = x.data<std::int64_t>();
      std::string* yp = y.data<std::string>();
      for (std::int64_t i = 0; i < x.size(); ++i) {
        auto it = t.to_string.find(xp[i]);
        yp[i] = it == t.to_string.end() ? a.default_string : it->second;
      }
    }
    return ok();
  }
};

}  // namespace onyx
