// ops::NonZero: the indices of the non-zero elements, as int64 [rank, count]
// in row-major order. The count depends on the data, so inference leaves it
// unknown and the kernel allocates the output.
// Opsets 9-latest. Numeric and bool. Tested in test/unit/non_zero_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct NonZero {
  static constexpr std::string_view domain = "", name = "NonZero";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric | dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    const sym_shape& x = c.input_shape(0);
    c.set_output(0, dtype::int64, sym_shape({x.rank_known ? dim(static_cast<std::int64_t>(x.rank())) : dim::unknown(),
                                             dim::unknown()}));
    return ok();
  }
};

}  // namespace onyx::ops
