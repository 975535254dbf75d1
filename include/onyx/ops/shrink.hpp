// ops::Shrink: y = x < -lambd ? x + bias : x > lambd ? x - bias : 0
// (lambd = 0.5, bias = 0).
// Opsets 9-latest. Kernel (kernels/cpu/shrink.hpp): every numeric type but
// bfloat16 (which the spec does not list); computed in double, stored back
// (so unsigned inputs wrap as a static_cast of the double would).
// Tested in test/unit/misc_elementwise_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Shrink {
  static constexpr std::string_view domain = "", name = "Shrink";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric - dtypes::bf16;
  struct attributes {
    float bias = 0.0f;
    float lambd = 0.5f;
    static constexpr auto fields =
        std::tuple{field{"bias", &attributes::bias}, field{"lambd", &attributes::lambd}};
  };
  static status infer(const attributes&, infer_context& c) { return infer_unary(c, T, "T"); }
};

}  // namespace onyx::ops
