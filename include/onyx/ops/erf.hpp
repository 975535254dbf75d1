// ops::Erf: y = erf(x), the Gauss error function.
// Opsets 9-latest (13 added bfloat16).
// Kernel (kernels/cpu/erf.hpp): floats only (integer Erf is not supported); float32 through the ISA micro-kernel isa::f32_erf.
// Tested in test/unit/unary_math_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Erf {
  static constexpr std::string_view domain = "", name = "Erf";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_unary(c, T, "T");
  }
};

}  // namespace onyx::ops
