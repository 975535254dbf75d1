// ops::Clip: y = min(max(x, min), max), bounds given as optional scalar
// inputs (absent = unbounded). When min > max every element becomes max.
// Opsets 11-latest (12 added integer types, 13 bfloat16); opsets 1-10 are
// ops::Clip_v6 (below), expanded into this op.
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

// ops::Clip_v6: Clip of opsets 1-10, bounds as float attributes `min`/`max`
// (opset 1's `consumed_inputs` is ignored). Expanded into ops::Clip with the
// given bounds as constant inputs, cast to the input's type by CastLike;
// an absent attribute becomes an absent input (unbounded).
// Tested in test/unit/clip_test.cpp.
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
