// ops::CastMap (ai.onnx.ml opset 1): a map from int64 keys to strings or
// floats into a 1-D tensor ordered by ascending key, cast to cast_to
// (TO_FLOAT, TO_STRING, TO_INT64). map_form DENSE gives one element per
// entry; SPARSE gives max_map elements, the value of key k at k (0 or ""
// elsewhere); a key outside [0, max_map) fails.
// Choices where the spec is silent (ORT's): floats become strings by
// std::to_string ("1.500000"); strings become numbers as strtod reads them
// (truncated toward zero for TO_INT64; a string that is not a number fails).
// Deviation: Y is 1-D as the spec says; ORT gives shape (1, n).
// Kernel: kernels/cpu/cast_map.hpp. Tested in test/unit/ml_map_test.cpp.
#pragma once

#include "onyx/ops/op.hpp"

namespace onyx::ops {

struct CastMap {
  static constexpr std::string_view domain = "ai.onnx.ml", name = "CastMap";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr std::array<slot, 0> signature{};
  struct attributes {
    std::string cast_to = "TO_FLOAT", map_form = "DENSE";
    std::int64_t max_map = 1;
    static constexpr auto fields =
        std::tuple{field{"cast_to", &attributes::cast_to}, field{"map_form", &attributes::map_form},
                   field{"max_map", &attributes::max_map}};
    dtype out_type() const {
      return cast_to == "TO_STRING" ? dtype::string : cast_to == "TO_INT64" ? dtype::int64 : dtype::float32;
    }
  };
  static status infer(const attributes& a, infer_context& c) {
    if (c.input(0).kind != value_kind::map) return c.fail("X must be a map");
    if (a.cast_to != "TO_FLOAT" && a.cast_to != "TO_STRING" && a.cast_to != "TO_INT64")
      return c.fail("cast_to must be TO_FLOAT, TO_STRING or TO_INT64, got '" + a.cast_to + "'");
    if (a.map_form != "DENSE" && a.map_form != "SPARSE")
      return c.fail("map_form must be DENSE or SPARSE, got '" + a.map_form + "'");
    if (a.map_form == "SPARSE" && a.max_map < 1) return c.fail("max_map must be at least 1");
    c.set_output(0, a.out_type(), sym_shape({a.map_form == "SPARSE" ? dim(a.max_map) : dim::unknown()}));
    return ok();
  }
};

}  // namespace onyx::ops
