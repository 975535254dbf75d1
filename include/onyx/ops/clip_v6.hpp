// ops::Clip_v6: Clip of opsets 1-10, bounds as float attributes `min`/`max`
// (opset 1's `consumed_inputs` is ignored). Expanded into ops::Clip with the
// given bounds as constant inputs, cast to the input's type by CastLike;
// an absent attribute becomes an absent input (unbounded).
// Tested in test/unit/clip_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Clip_v6 {
  static constexpr std::string_view domain = "", name = "Clip";
  static constexpr int since = 1, until = 10;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::f16 | dtypes::f32 | dtypes::f64;
  struct attributes {
    std::optional<float> min, max;
    static constexpr auto fields = std::tuple{field{"min", &attributes::min}, field{"max", &attributes::max}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    c.set_output(0, c.input(0));
    return ok();
  }
  static status expand(const attributes& a, expand_context& c) {
    std::vector<expand_context::ref> in{c.input(0), -1, -1};
    for (int i = 0; i < 2; ++i) {
      const std::optional<float>& bound = i == 0 ? a.min : a.max;
      if (!bound) continue;
      ONYX_ASSIGN(auto cast, c.add("CastLike", {c.constant(tensor::scalar(*bound)), c.input(0)}));
      in[1 + i] = cast[0];
    }
    while (in.back() == -1) in.pop_back();
    ONYX_ASSIGN(auto outs, c.add("Clip", std::move(in)));
    c.set_output(0, outs[0]);
    return ok();
  }
};

}  // namespace onyx::ops
