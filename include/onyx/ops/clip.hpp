// ops::Clip: y = min(max(x, min), max), bounds given as optional scalar
// inputs (absent = unbounded). When min > max every element becomes max.
// Opsets 11-latest (12 added integer types, 13 bfloat16); opsets 1-10 are
// ops::Clip_v6 (clip_v6.hpp), expanded into this op.
// Deviation: min and max may be any tensor that broadcasts to x (the spec
// asks for scalars; a one-element tensor of any rank is common in exports).
// Kernel (kernels/cpu/clip.hpp): every numeric type; half types in float.
// Tested in test/unit/clip_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Clip {
  static constexpr std::string_view domain = "", name = "Clip";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{1, 3}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_same_type(c, 0, c.input_count() - 1, T, "T"));
    for (int i = 1; i < c.input_count(); ++i)
      if (c.has_input(i)) ONYX_TRY(require_broadcasts_to(c, i, 0, i == 1 ? "min" : "max"));
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
