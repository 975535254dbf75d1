// ops::StringNormalizer: removes stopwords (compared case-insensitively unless
// is_case_sensitive) and empty strings from a [C] or [1, C] string tensor,
// then changes case (LOWER, UPPER or NONE). An all-removed input gives [""]
// ([1] or [1, 1]). Opset 10-latest. Case mapping is ASCII only (the locale
// attribute is accepted and ignored). The output size depends on the data.
// Tested in test/unit/text_test.cpp and node/simple test_strnorm*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct StringNormalizer {
  static constexpr std::string_view domain = "", name = "StringNormalizer";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::string;
  struct attributes {
    std::string case_change_action = "NONE";
    std::int64_t is_case_sensitive = 0;
    std::string locale;
    std::vector<std::string> stopwords;
    static constexpr auto fields = std::tuple{field{"case_change_action", &attributes::case_change_action},
                                              field{"is_case_sensitive", &attributes::is_case_sensitive},
                                              field{"locale", &attributes::locale},
                                              field{"stopwords", &attributes::stopwords}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (a.case_change_action != "LOWER" && a.case_change_action != "UPPER" && a.case_change_action != "NONE")
      return c.fail("case_change_action must be LOWER, UPPER or NONE, got '" + a.case_change_action + "'");
    const sym_shape& x = c.input_shape(0);
    if (x.rank_known && x.rank() != 1 && !(x.rank() == 2 && (!x[0].known() || x[0].value() == 1)))
      return c.fail("input must be [C] or [1, C], got " + x.str());
    if (!x.rank_known) return c.set_output(0, dtype::string, sym_shape::unknown_rank()), ok();
    c.set_output(0, dtype::string,
                 x.rank() == 1 ? sym_shape({dim::unknown()}) : sym_shape({dim(1), dim::unknown()}));
    return ok();
  }
};

}  // namespace onyx::ops
