// ops::Range: start, start + delta, ... up to (not including) limit;
// max(ceil((limit - start) / delta), 0) elements. Opsets 11-latest.
// float32/64, float16/bfloat16 (computed in float), int16/32/64. The length is known at inference only when the
// three scalars are. Tested in test/unit/range_test.cpp.
#pragma once

#include <cmath>

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct Range {
  static constexpr std::string_view domain = "", name = "Range";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{3, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i16 | dtypes::i32 | dtypes::i64;
  struct attributes {};
  static result<std::int64_t> count(double start, double limit, double delta) {
    if (delta == 0) return status(errc::invalid_argument, "Range delta is 0");
    return std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil((limit - start) / delta)), 0);
  }
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    for (int i = 1; i < 3; ++i)
      if (c.input_type(i) != c.input_type(0)) return c.fail("start, limit and delta must have one type");
    for (int i = 0; i < 3; ++i)
      if (c.input_shape(i).rank_known && c.input_shape(i).rank() != 0 &&
          !(c.input_shape(i).rank() == 1 && c.input_shape(i).dims[0] == dim(1)))
        return c.fail("input " + std::to_string(i) + " must be a scalar, not " + c.input_shape(i).str());
    const tensor *s = c.input_value(0), *l = c.input_value(1), *d = c.input_value(2);
    if (s && l && d) {
      auto as_double = [](const tensor* t) {
        return visit_numeric(
            t->type(), [&](auto zero) { return static_cast<double>(load(t->data<decltype(zero)>()[0])); },
            [] { return 0.0; });
      };
      ONYX_ASSIGN(auto n, count(as_double(s), as_double(l), as_double(d)));
      c.set_output(0, c.input_type(0), sym_shape({dim(n)}));
    } else {
      c.set_output(0, c.input_type(0), unknown_dims(1));
    }
    return ok();
  }
};

}  // namespace onyx::ops
