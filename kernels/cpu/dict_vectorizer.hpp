// kernel<ops::DictVectorizer, cpu>: the vocabulary hashed at prepare; run
// looks every map key up and writes its value at the key's position.
#pragma once

#include <unordered_map>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/dict_vectorizer.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::dict_detail {

struct tables {
  std::unordered_map<std::string, std::int64_t> strings;
  std::unordered_map<std::int64_t, std::int64_t> ints;
};

}  // namespace onyx::kernels::cpu::dict_detail

namespace onyx {

template <>
struct kernel<ops::DictVectorizer, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  using state = kernels::cpu::dict_detail::tables;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::DictVectorizer>& p) {
    state t;
    const auto& a = p.attrs();
    for (std::size_t i = 0; i < a.string_vocabulary.size(); ++i) t.strings.try_emplace(a.string_vocabulary[i], i);
    for (std::size_t i = 0; i < a.int64_vocabulary.size(); ++i) t.ints.try_emplace(a.int64_vocabulary[i], i);
    return t;
  }
  template <ops::signature S>
  static status run(const call<ops::DictVectorizer>& c) {
    const state& t = c.state<state>();
    const auto& a = c.attrs();
    const value& in = c.input_value(0);
    if (!in.is_map()) return status(errc::invalid_argument, "X is not a map");
    const map& m = in.as_map();
    const auto n = static_cast<std::int64_t>(std::max(a.string_vocabulary.size(), a.int64_vocabulary.size()));
    const bool string_keys = m.keys.type() == dtype::string;
    if (string_keys != !a.string_vocabulary.empty())
      return status(errc::invalid_argument, std::string("the map has ") + (string_keys ? "string" : "integer") +
                                                " keys but the vocabulary is not of that kind");
    dtype vt = m.values.empty() ? dtype::float32 : m.values[0].as_tensor().type();
    if (c.output_value(0).is_tensor() && c.output(0).type() != dtype::undefined && m.values.empty())
      vt = c.output(0).type();
    if (!ops::DictVectorizer::T2.contains(vt))
      return status(errc::invalid_argument, "the map's values have type " + std::string(name(vt)));
    tensor& y = kernels::cpu::output_sized(c, 0, vt, {n});
    if (vt != dtype::string) std::memset(y.raw(), 0, static_cast<std::size_t>(n * bit_width(vt) / 8));
    const std::size_t width = vt == dtype::string ? 0 : static_cast<std::size_t>(bit_width(vt) / 8);
    for (std::size_t i = 0; i < m.values.size(); ++i) {
      std::int64_t j = -1;
      if (string_keys) {
        if (auto it = t.strings.find(m.keys.data<std::string>()[i]); it != t.strings.end()) j = it->second;
      } else {
        const std::int64_t k = m.keys.type() == dtype::int64
                                   ? m.keys.data<std::int64_t>()[i]
                                   : static_cast<std::int64_t>(m.keys.data<std::int32_t>()[i]);
        if (auto it = t.ints.find(k); it != t.ints.end()) j = it->second;
      }
      if (j < 0) continue;
      const tensor& v = m.values[i].as_tensor();
      if (v.type() != vt || v.size() != 1)
        return status(errc::invalid_argument,
                      "map value " + std::to_string(i) + " is not one " + std::string(name(vt)));
      if (vt == dtype::string)
        y.data<std::string>()[j] = v.data<std::string>()[0];
      else
        std::memcpy(static_cast<char*>(y.raw()) + j * static_cast<std::int64_t>(width), v.raw(), width);
    }
    return ok();
  }
};

}  // namespace onyx
