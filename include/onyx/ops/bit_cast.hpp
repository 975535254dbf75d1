// ops::BitCast: the input's bytes reinterpreted as type `to` of the same bit
// width (little endian), same shape.
// Opsets 26-latest. Kernel (kernels/cpu/bit_cast.hpp): every non-string type
// (a byte copy, or nothing when planned in place).
// Tested in test/unit/bit_cast_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct BitCast {
  static constexpr std::string_view domain = "", name = "BitCast";
  static constexpr int since = 26, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::all - dtypes::string, T2 = T1;
  struct attributes {
    std::int64_t to = 0;
    static constexpr auto fields = std::tuple{field{"to", &attributes::to, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    auto to = static_cast<dtype>(a.to);
    if (!is_valid(static_cast<int>(a.to)) || !T2.contains(to))
      return c.fail("to = " + std::to_string(a.to) + " is not a non-string ONNX type");
    if (bit_width(to) != bit_width(c.input_type(0)))
      return c.fail("cannot bitcast " + std::string(onyx::name(c.input_type(0))) + " (" +
                    std::to_string(bit_width(c.input_type(0))) + " bits) to " + std::string(onyx::name(to)) + " (" +
                    std::to_string(bit_width(to)) + " bits)");
    c.set_output(0, to, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
