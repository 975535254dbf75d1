// kernel<ops::OneHotEncoder, cpu>: prepare hashes the categories; run zeroes
// Y and sets one 1 per element found.
#pragma once

#include <cstring>
#include <unordered_map>

#include "onyx/ops/one_hot_encoder.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::one_hot_detail {

struct tables {
  std::unordered_map<std::string, std::int64_t> strings;
  std::unordered_map<std::int64_t, std::int64_t> ints;
};

}  // namespace onyx::kernels::cpu::one_hot_detail

namespace onyx {

template <>
struct kernel<ops::OneHotEncoder, cpu> {
  static constexpr std::array types{ops::OneHotEncoder::T};
  using state = kernels::cpu::one_hot_detail::tables;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::OneHotEncoder>& p) {
    state t;
    const auto& a = p.attrs();
    for (std::size_t i = 0; i < a.cats_strings.size(); ++i) t.strings.try_emplace(a.cats_strings[i], i);
    for (std::size_t i = 0; i < a.cats_int64s.size(); ++i) t.ints.try_emplace(a.cats_int64s[i], i);
    return t;
  }
  template <ops::signature S>
  static status run(const call<ops::OneHotEncoder>& c) {
    using T = storage_t<S[0]>;
    const state& t = c.state<state>();
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    const std::int64_t n =
        static_cast<std::int64_t>(std::is_same_v<T, std::string> ? a.cats_strings.size() : a.cats_int64s.size());
    float* yp = c.output(0).data<float>();
    std::memset(yp, 0, static_cast<std::size_t>(x.size() * n) * sizeof(float));
    const T* xp = x.data<T>();
    for (std::int64_t i = 0; i < x.size(); ++i) {
      std::int64_t j = -1;
      if constexpr (std::is_same_v<T, std::string>) {
        if (auto it = t.strings.find(xp[i]); it != t.strings.end()) j = it->second;
      } else {
        if (auto it = t.ints.find(static_cast<std::int64_t>(xp[i])); it != t.ints.end()) j = it->second;
      }
      if (j >= 0)
        yp[i * n + j] = 1.0f;
      else if (!a.zeros)
        return status(errc::invalid_argument, "element " + std::to_string(i) + " is in no category (zeros = 0)");
    }
    return ok();
  }
};

}  // namespace onyx
