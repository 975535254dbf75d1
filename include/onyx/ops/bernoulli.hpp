// ops::Bernoulli: each output element is 1 with the probability its input
// element holds (in [0, 1]), else 0, of type `dtype` (default: the input's).
// Opset 15-latest (22 added bfloat16). Input float16, float32, float64,
// bfloat16; output those, the integers or bool. Not folded (ops/random.hpp).
// Tested in test/unit/random_test.cpp and by the conformance tests
// test_bernoulli* (test/conformance/random_list.txt).
#pragma once

#include "onyx/ops/random.hpp"

namespace onyx::ops {

struct Bernoulli {
  static constexpr std::string_view domain = "", name = "Bernoulli";
  static constexpr int since = 15, until = latest;
  static constexpr bool deterministic = false;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::floats, T2 = dtypes::numeric | dtypes::boolean;
  static constexpr std::array signature{in(0), out(0)};
  struct attributes {
    std::optional<std::int64_t> dtype;
    std::optional<float> seed;
    static constexpr auto fields = std::tuple{field{"dtype", &attributes::dtype}, field{"seed", &attributes::seed}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_ASSIGN(onyx::dtype t, detail::random_output_type(c, a.dtype, c.input_type(0), T2, "T2"));
    c.set_output(0, t, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
