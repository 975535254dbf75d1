// ops::RandomNormalLike: RandomNormal shaped like its input, of type `dtype`
// (default: the input's). The input's values are not read. Opsets 1-latest
// (22 added bfloat16). Output float16, float32, float64, bfloat16. Not folded
// (ops/random.hpp). Tested in test/unit/random_test.cpp.
#pragma once

#include "onyx/ops/random.hpp"

namespace onyx::ops {

struct RandomNormalLike {
  static constexpr std::string_view domain = "", name = "RandomNormalLike";
  static constexpr int since = 1, until = latest;
  static constexpr bool deterministic = false;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::numeric | dtypes::boolean | dtypes::string, T2 = dtypes::floats;
  static constexpr std::array signature{out(0)};
  struct attributes {
    std::optional<std::int64_t> dtype;
    float mean = 0.0f, scale = 1.0f;
    std::optional<float> seed;
    static constexpr auto fields = std::tuple{field{"dtype", &attributes::dtype}, field{"mean", &attributes::mean},
                                              field{"scale", &attributes::scale}, field{"seed", &attributes::seed}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_ASSIGN(onyx::dtype t, detail::random_output_type(c, a.dtype, c.input_type(0), T2, "T2"));
    if (!T2.contains(t)) return c.fail("the output type " + std::string(onyx::name(t)) + " is not a float type; set dtype");
    if (!(a.scale >= 0)) return c.fail("scale " + std::to_string(a.scale) + " is negative");
    c.set_output(0, t, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
