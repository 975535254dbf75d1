// ops::MeanVarianceNormalization: Y = (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9),
// the expectations taken over `axes` (default 0, 2, 3: per channel of NCHW).
// Opsets 9-latest (13 added bfloat16). No kernel: expanded as the spec's
// function body (ReduceMean, Pow, Sub, Sqrt, Add, Div), its constants cast to
// X's type. Tested in test/unit/normalization_test.cpp.
#pragma once

#include "onyx/ops/axes.hpp"

namespace onyx::ops {

struct MeanVarianceNormalization {
  static constexpr std::string_view domain = "", name = "MeanVarianceNormalization";
  static constexpr int since = 9, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    std::vector<std::int64_t> axes{0, 2, 3};
    static constexpr auto fields = std::tuple{field{"axes", &attributes::axes}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (c.input_shape(0).rank_known) {
      auto axes = normalize_axes(a.axes, c.input_shape(0).rank(), "axes entry");
      if (!axes.ok()) return c.fail(axes.error().message());
    }
    return infer_like_input(c);
  }
  static status expand(const attributes& a, expand_context& c) {
    using ref = expand_context::ref;
    const ref x = c.input(0);
    auto like_x = [&](float v) -> result<ref> {
      ONYX_ASSIGN(auto r, c.add("CastLike", {c.constant(tensor::scalar(v)), x}));
      return r[0];
    };
    auto one = [&](std::string_view op, std::vector<ref> in) -> result<ref> {
      ONYX_ASSIGN(auto r, c.add(op, std::move(in)));
      return r[0];
    };
    const ref axes = c.constant(tensor::from(a.axes, {static_cast<std::int64_t>(a.axes.size())}));
    ONYX_ASSIGN(ref two, like_x(2.0f));
    ONYX_ASSIGN(ref epsilon, like_x(1e-9f));
    ONYX_ASSIGN(ref mean, one("ReduceMean", {x, axes}));
    ONYX_ASSIGN(ref mean_squared, one("Pow", {mean, two}));
    ONYX_ASSIGN(ref x_squared, one("Pow", {x, two}));
    ONYX_ASSIGN(ref mean_of_squares, one("ReduceMean", {x_squared, axes}));
    ONYX_ASSIGN(ref variance, one("Sub", {mean_of_squares, mean_squared}));
    ONYX_ASSIGN(ref stddev, one("Sqrt", {variance}));
    ONYX_ASSIGN(ref centered, one("Sub", {x, mean}));
    ONYX_ASSIGN(ref denominator, one("Add", {stddev, epsilon}));
    ONYX_ASSIGN(ref y, one("Div", {centered, denominator}));
    c.set_output(0, y);
    return ok();
  }
};

}  // namespace onyx::ops
