// ops::StringConcat: Z = X + Y element-wise on strings, with numpy
// broadcasting. Opset 20-latest.
// Tested in test/unit/text_test.cpp and node/test_string_concat_*.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct StringConcat {
  static constexpr std::string_view domain = "", name = "StringConcat";
  static constexpr int since = 20, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::string;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T, "T"));
    return infer_broadcast(c);
  }
};

}  // namespace onyx::ops
