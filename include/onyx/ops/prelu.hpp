// ops::PRelu: y = x < 0 ? slope * x : x, slope broadcast to x's shape
// (unidirectional numpy broadcasting).
// Opsets 1-latest in one struct: 7 made slope broadcast (1-6 allowed a
// same-shape or one-element slope, a subset), 16 added integer types.
// Kernel (kernels/cpu/prelu.hpp): float32, float64, float16/bfloat16 (in
// float), int32, int64, uint32, uint64. Tested in test/unit/activation_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct PRelu {
  static constexpr std::string_view domain = "", name = "PRelu";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_same_type(c, 0, 1, T, "T"));
    ONYX_TRY(require_broadcasts_to(c, 1, 0, "slope"));
    c.set_output(0, c.input(0));
    return ok();
  }
};

}  // namespace onyx::ops
