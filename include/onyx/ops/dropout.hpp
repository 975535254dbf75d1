// ops::Dropout: output = data at inference (training_mode false or absent,
// the only mode of opsets 1-11), the optional mask all true. With
// training_mode true (opset 12+ input) each element is kept with
// probability 1 - ratio and scaled by 1 / (1 - ratio), the others zeroed,
// and the mask says which were kept; ratio 0 keeps everything. Its values
// come from a generator (kernels/cpu/random_generator.hpp; `seed` makes
// every run draw the same mask), so Dropout is never folded or propagated.
// Opsets 1-latest in one struct: 1-11 carry `ratio` (and, before 7,
// `is_test`) as attributes, 12+ take `ratio` and `training_mode` as optional
// inputs. Deviation: the mask is bool in every opset (7-9 typed it T).
// float8 data is not supported.
// Kernel (kernels/cpu/dropout.hpp): float16, float32, float64, bfloat16.
// Tested in test/unit/dropout_test.cpp and by the conformance tests
// test_training_dropout* (test/conformance/random_list.txt for the masks).
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Dropout {
  static constexpr std::string_view domain = "", name = "Dropout";
  static constexpr int since = 1, until = latest;
  static constexpr bool deterministic = false;  // training mode draws a mask
  static constexpr arity inputs{1, 3}, outputs{1, 2};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::floats;
  static constexpr dtype_set T2 = dtypes::boolean;
  struct attributes {
    float ratio = 0.5f;
    std::int64_t is_test = 0;
    std::optional<std::int64_t> seed;
    static constexpr auto fields = std::tuple{field{"ratio", &attributes::ratio},
                                              field{"is_test", &attributes::is_test},
                                              field{"seed", &attributes::seed}};
  };
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    if (c.input_count() > 1 && c.has_input(1)) {
      ONYX_TRY(require_type(c, 1, T1, "T1"));
      if (c.input_shape(1).rank_known && c.input_shape(1).rank() != 0) return c.fail("ratio must be a scalar");
    }
    if (c.input_count() > 2 && c.has_input(2)) {
      ONYX_TRY(require_type(c, 2, T2, "T2"));
    }
    c.set_output(0, c.input(0));
    if (c.output_count() > 1) c.set_output(1, dtype::boolean, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
