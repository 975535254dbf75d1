// ops::ConstantOfShape: a tensor of the shape given by input 0 (int64, 1-D),
// every element equal to the one-element `value` attribute (default float 0).
// Opsets 9-latest (20 added types). Every byte-addressed value type. The
// shape may be computed at run time (then inference knows only the rank).
// Tested in test/unit/constant_of_shape_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct ConstantOfShape {
  static constexpr std::string_view domain = "", name = "ConstantOfShape";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i64;
  struct attributes {
    tensor value;  // empty: float32 0
    static constexpr auto fields = std::tuple{field{"value", &attributes::value}};
  };
  static dtype value_type(const attributes& a) { return a.value.empty() ? dtype::float32 : a.value.type(); }
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    if (!a.value.empty() && a.value.size() != 1)
      return c.fail("the value attribute must hold one element, not " + std::to_string(a.value.size()));
    if (auto s = c.input_ints(0)) {
      for (std::size_t i = 0; i < s->size(); ++i)
        if ((*s)[i] < 0) return c.fail("shape entry " + std::to_string(i) + " is negative: " + std::to_string((*s)[i]));
      c.set_output(0, value_type(a), sym_shape(*s));
    } else if (auto n = known_length(c, 0)) {
      c.set_output(0, value_type(a), unknown_dims(static_cast<std::size_t>(*n)));
    } else {
      c.set_output(0, value_type(a), sym_shape::unknown_rank());
    }
    return ok();
  }
};

}  // namespace onyx::ops
