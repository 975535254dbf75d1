// ops::RandomNormal: a tensor of `shape` with values drawn from the normal
// distribution (mean, scale = standard deviation), of type `dtype` (default
// float32); `seed` makes every run draw the same values. Opsets 1-latest (22
// added bfloat16). float16, float32, float64, bfloat16. Not folded
// (ops/random.hpp). Tested in test/unit/random_test.cpp.
#pragma once

#include "onyx/ops/random.hpp"

namespace onyx::ops {

struct RandomNormal {
  static constexpr std::string_view domain = "", name = "RandomNormal";
  static constexpr int since = 1, until = latest;
  static constexpr bool deterministic = false;
  static constexpr arity inputs{0, 0}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr std::array signature{out(0)};
  struct attributes {
    std::optional<std::int64_t> dtype;
    float mean = 0.0f, scale = 1.0f;
    std::optional<float> seed;
    std::vector<std::int64_t> shape;
    static constexpr auto fields =
        std::tuple{field{"dtype", &attributes::dtype}, field{"mean", &attributes::mean},
                   field{"scale", &attributes::scale}, field{"seed", &attributes::seed},
                   field{"shape", &attributes::shape, true}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_ASSIGN(onyx::dtype t, detail::random_output_type(c, a.dtype, onyx::dtype::float32, T, "T"));
    for (auto d : a.shape)
      if (d < 0) return c.fail("shape has a negative dim " + std::to_string(d));
    if (!(a.scale >= 0)) return c.fail("scale " + std::to_string(a.scale) + " is negative");
    c.set_output(0, t, sym_shape(extents(a.shape.begin(), a.shape.end())));
    return ok();
  }
};

}  // namespace onyx::ops
