// ops::RegexFullMatch: Y[i] = whether the whole of X[i] matches `pattern`.
// Opset 20-latest. Deviation: the spec names RE2 syntax; the kernel uses
// std::regex (ECMAScript), which agrees on the common subset (classes, \w \W
// \b, anchors, bounded repeats, groups, alternation) but not on RE2-only
// constructs (named groups (?P<..>), \pL classes). An invalid pattern is an
// error at the first run. Tested in test/unit/text_test.cpp and
// node/test_regex_full_match_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct RegexFullMatch {
  static constexpr std::string_view domain = "", name = "RegexFullMatch";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::string;
  static constexpr dtype_set T2 = dtypes::boolean;
  struct attributes {
    std::string pattern;
    static constexpr auto fields = std::tuple{field{"pattern", &attributes::pattern}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    c.set_output(0, dtype::boolean, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
