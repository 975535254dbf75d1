// kernels/cpu/regex_full_match.hpp: RegexFullMatch (20+) with std::regex
// (ECMAScript grammar), compiled once per node in prepare. std::regex stays
// in this kernel TU; no runtime header reaches it.
#pragma once

#include <memory>
#include <regex>

#include "onyx/ops/regex_full_match.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

template <> struct kernel<ops::RegexFullMatch, cpu> {
  static constexpr std::array types{dtypes::string};
  using state = std::regex;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::RegexFullMatch>& p) {
    try {
      return std::regex(p.attrs().pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return status(errc::invalid_argument, "RegexFullMatch: invalid pattern '" + p.attrs().pattern + "': " + e.what());
    }
  }
  template <ops::signature S> static status run(const call<ops::RegexFullMatch>& c) {
    const std::regex& re = c.state<std::regex>();
    const std::string* x = c.input(0).data<std::string>();
    bool* y = c.output(0).data<bool>();
    // A string: std::regex_match of a short string, about 512 units.
    parallel_for(c.pool(), c.input(0).size(), grain_for(512), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) y[i] = std::regex_match(x[i], re);
    });
    return ok();
  }
};

}  // namespace onyx
