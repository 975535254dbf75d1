// ops::Mod: C = A mod B with numpy broadcasting. fmod = 0: the result has the
// divisor's sign (Python's %); fmod = 1: the dividend's (C's fmod). Floats
// always use fmod semantics, as the spec requires fmod = 1 for them (and the
// ONNX reference computes np.fmod for floats either way).
// Opsets 10-latest (13 added bfloat16). Deviation: x mod 0 gives 0 for
// integers (the spec leaves it undefined; numpy also gives 0).
// Kernel (kernels/cpu/mod.hpp): every numeric type; half types in float.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Mod {
  static constexpr std::string_view domain = "", name = "Mod";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {
    std::int64_t fmod = 0;
    static constexpr auto fields = std::tuple{field{"fmod", &attributes::fmod}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.fmod != 0 && a.fmod != 1) return c.fail("fmod must be 0 or 1, got " + std::to_string(a.fmod));
    return infer_binary(c, T, "T");
  }
};

}  // namespace onyx::ops
