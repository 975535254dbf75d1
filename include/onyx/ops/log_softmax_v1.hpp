// ops::LogSoftmax_v1: LogSoftmax of opsets 1-12: the input is coerced to 2-D at `axis`
// (default 1; dims before it form the rows) and each row is normalized.
// Expanded into Flatten(axis) -> LogSoftmax(axis=-1) -> Reshape(Shape(input)).
// Tested in test/unit/softmax_test.cpp.
#pragma once

#include "onyx/ops/detail/softmax.hpp"

namespace onyx::ops {

struct LogSoftmax_v1 {
  static constexpr std::string_view domain = "", name = "LogSoftmax";
  static constexpr int since = 1, until = 12;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::int64_t axis = 1;
    static constexpr auto fields = std::tuple{field{"axis", &attributes::axis}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::softmax_v1_infer(a.axis, c, T); }
  static status expand(const attributes& a, expand_context& c) { return detail::softmax_v1_expand(name, a.axis, c); }
};

}  // namespace onyx::ops
