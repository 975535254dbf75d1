// ops::Multinomial: for each row of `input` [batch, classes] (unnormalized
// log-probabilities), `sample_size` class indices drawn with probabilities
// softmax(row); output [batch, sample_size] of type `dtype` (int32 default,
// or int64). Opsets 7-latest. Input float16, float32, float64. Not folded
// (ops/random.hpp). Tested in test/unit/random_test.cpp.
#pragma once

#include "onyx/ops/random.hpp"

namespace onyx::ops {

struct Multinomial {
  static constexpr std::string_view domain = "", name = "Multinomial";
  static constexpr int since = 7, until = latest;
  static constexpr bool deterministic = false;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::f16 | dtypes::f32 | dtypes::f64, T2 = dtypes::indices;
  static constexpr std::array signature{in(0), out(0)};
  struct attributes {
    std::optional<std::int64_t> dtype;
    std::int64_t sample_size = 1;
    std::optional<float> seed;
    static constexpr auto fields = std::tuple{field{"dtype", &attributes::dtype},
                                              field{"sample_size", &attributes::sample_size},
                                              field{"seed", &attributes::seed}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_ASSIGN(onyx::dtype t, detail::random_output_type(c, a.dtype, onyx::dtype::int32, T2, "T2"));
    if (a.sample_size < 1) return c.fail("sample_size must be at least 1, got " + std::to_string(a.sample_size));
    const sym_shape& s = c.input_shape(0);
    if (s.rank_known && s.rank() != 2) return c.fail("input must be 2-D [batch, classes], not " + s.str());
    c.set_output(0, t, sym_shape(std::vector<dim>{s.rank_known ? s[0] : dim::unknown(), dim(a.sample_size)}));
    return ok();
  }
};

}  // namespace onyx::ops
