// ops::BitShift: Z = X << Y or X >> Y (attribute direction = "LEFT" or
// "RIGHT") on unsigned integers, with numpy broadcasting. Shifting by the
// bit width or more gives 0.
// Opsets 11-latest. Kernel (kernels/cpu/bit_shift.hpp): uint8..uint64.
// Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct BitShift {
  static constexpr std::string_view domain = "", name = "BitShift";
  static constexpr int since = 11, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::unsigned_ints;
  struct attributes {
    std::string direction;
    static constexpr auto fields = std::tuple{field{"direction", &attributes::direction, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (a.direction != "LEFT" && a.direction != "RIGHT")
      return c.fail("direction must be \"LEFT\" or \"RIGHT\", got \"" + a.direction + "\"");
    return infer_binary(c, T, "T");
  }
};

}  // namespace onyx::ops
