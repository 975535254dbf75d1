// ops::StringSplit: splits each string on `delimiter` (every occurrence, so
// consecutive delimiters delimit empty strings) or, when the delimiter is
// absent or "", on runs of whitespace (leading/trailing whitespace dropped),
// performing at most maxsplit splits. Y is X's shape plus the largest count,
// padded with ""; Z (int64, X's shape) holds each element's count.
// Opset 20-latest. Tested in test/unit/text_test.cpp and node/test_string_split_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct StringSplit {
  static constexpr std::string_view domain = "", name = "StringSplit";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{1, 1}, outputs{2, 2};
  static constexpr dtype_set T1 = dtypes::string;
  struct attributes {
    std::string delimiter;
    std::optional<std::int64_t> maxsplit;
    static constexpr auto fields =
        std::tuple{field{"delimiter", &attributes::delimiter}, field{"maxsplit", &attributes::maxsplit}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    sym_shape x = c.input_shape(0);
    c.set_output(1, dtype::int64, x);
    if (x.rank_known) x.dims.push_back(dim::unknown());
    c.set_output(0, dtype::string, x);
    return ok();
  }
};

}  // namespace onyx::ops
