// kernels/cpu/string_ops.hpp: StringNormalizer, StringSplit, StringConcat.
//
// Plain string processing over std::string elements. Case mapping is ASCII
// (bytes >= 0x80 pass through unchanged, so UTF-8 stays valid).
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kernels/cpu/broadcast.hpp"
#include "onyx/ops/string_concat.hpp"
#include "onyx/ops/string_normalizer.hpp"
#include "onyx/ops/string_split.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::string_detail {

inline std::string ascii_lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}
inline std::string ascii_upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

inline status normalize(const call<ops::StringNormalizer>& c) {
  const auto& a = c.attrs();
  const tensor& x = c.input(0);
  const bool fold = a.is_case_sensitive == 0;
  std::unordered_set<std::string> stop;
  for (const auto& w : a.stopwords) stop.insert(fold ? ascii_lower(w) : w);
  std::vector<std::string> kept;
  for (const auto& s : x.values<std::string>()) {
    if (s.empty() || stop.count(fold ? ascii_lower(s) : s)) continue;
    kept.push_back(a.case_change_action == "LOWER"   ? ascii_lower(s)
                   : a.case_change_action == "UPPER" ? ascii_upper(s)
                                                     : s);
  }
  if (kept.empty()) kept.emplace_back();
  const auto n = static_cast<std::int64_t>(kept.size());
  tensor& y = c.allocate_output(0, dtype::string, x.rank() == 2 ? extents{1, n} : extents{n});
  std::move(kept.begin(), kept.end(), y.data<std::string>());
  return ok();
}

/// Splits `s` on `delim` ("" = runs of whitespace), at most `maxsplit` times.
inline std::vector<std::string> split(std::string_view s, const std::string& delim, std::int64_t maxsplit) {
  std::vector<std::string> parts;
  if (delim.empty()) {
    auto space = [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; };
    std::size_t i = 0;
    while (true) {
      while (i < s.size() && space(s[i])) ++i;
      if (i == s.size()) break;
      if (static_cast<std::int64_t>(parts.size()) == maxsplit) {  // the rest, trailing whitespace dropped
        std::size_t e = s.size();
        while (e > i && space(s[e - 1])) --e;
        parts.emplace_back(s.substr(i, e - i));
        break;
      }
      std::size_t j = i;
      while (j < s.size() && !space(s[j])) ++j;
      parts.emplace_back(s.substr(i, j - i));
      i = j;
    }
    return parts;
  }
  std::size_t start = 0;
  while (static_cast<std::int64_t>(parts.size()) < maxsplit) {
    const std::size_t at = s.find(delim, start);
    if (at == std::string_view::npos) break;
    parts.emplace_back(s.substr(start, at - start));
    start = at + delim.size();
  }
  parts.emplace_back(s.substr(start));
  return parts;
}

inline status split_strings(const call<ops::StringSplit>& c) {
  const auto& a = c.attrs();
  const tensor& x = c.input(0);
  const std::int64_t maxsplit = a.maxsplit && *a.maxsplit >= 0 ? *a.maxsplit : std::numeric_limits<std::int64_t>::max();
  std::vector<std::vector<std::string>> parts;
  std::int64_t width = 0;
  for (const auto& s : x.values<std::string>()) {
    parts.push_back(split(s, a.delimiter, maxsplit));
    width = std::max(width, static_cast<std::int64_t>(parts.back().size()));
  }
  extents ys = x.shape();
  ys.push_back(width);
  tensor& y = c.allocate_output(0, dtype::string, ys);
  tensor& z = c.allocate_output(1, dtype::int64, x.shape());
  std::string* yp = y.data<std::string>();
  std::int64_t* zp = z.data<std::int64_t>();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    zp[i] = static_cast<std::int64_t>(parts[i].size());
    std::move(parts[i].begin(), parts[i].end(), yp + static_cast<std::int64_t>(i) * width);
  }
  return ok();
}

}  // namespace onyx::kernels::cpu::string_detail

namespace onyx {

template <> struct kernel<ops::StringNormalizer, cpu> {
  static constexpr std::array types{dtypes::string};
  template <ops::signature S> static status run(const call<ops::StringNormalizer>& c) {
    return kernels::cpu::string_detail::normalize(c);
  }
};

template <> struct kernel<ops::StringSplit, cpu> {
  static constexpr std::array types{dtypes::string};
  template <ops::signature S> static status run(const call<ops::StringSplit>& c) {
    return kernels::cpu::string_detail::split_strings(c);
  }
};

template <> struct kernel<ops::StringConcat, cpu> {
  static constexpr std::array types{dtypes::string};
  template <ops::signature S> static status run(const call<ops::StringConcat>& c) {
    return kernels::cpu::broadcast_binary<std::string, std::string, std::string>(
        c.input(0), c.input(1), c.output(0), [](const std::string& a, const std::string& b) { return a + b; },
        c.pool());
  }
};

}  // namespace onyx
