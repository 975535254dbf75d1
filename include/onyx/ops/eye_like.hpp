// ops::EyeLike: a 2-D tensor shaped like the input with ones on diagonal k
// and zeros elsewhere, of type `dtype` (default: the input's).
// Opsets 9-latest. Numeric and bool outputs. Tested in
// test/unit/trilu_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct EyeLike {
  static constexpr std::string_view domain = "", name = "EyeLike";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::numeric | dtypes::boolean, T2 = T1;
  static constexpr std::array signature{out(0)};
  struct attributes {
    std::optional<std::int64_t> dtype;
    std::int64_t k = 0;
    static constexpr auto fields = std::tuple{field{"dtype", &attributes::dtype}, field{"k", &attributes::k}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    onyx::dtype t = c.input_type(0);
    if (a.dtype) {
      if (!is_valid(static_cast<int>(*a.dtype)) || !T2.contains(static_cast<onyx::dtype>(*a.dtype)))
        return c.fail("dtype " + std::to_string(*a.dtype) + " is not a numeric or bool type");
      t = static_cast<onyx::dtype>(*a.dtype);
    }
    if (c.input_shape(0).rank_known && c.input_shape(0).rank() != 2)
      return c.fail("input must be 2-D, not " + c.input_shape(0).str());
    c.set_output(0, t, c.input_shape(0).rank_known ? c.input_shape(0) : unknown_dims(2));
    return ok();
  }
};

}  // namespace onyx::ops
