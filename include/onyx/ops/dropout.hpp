// ops::Dropout at inference: output = data; the optional mask output is all
// true (nothing dropped).
// Opsets 1-latest in one struct: 1-11 carry `ratio` (and, before 7,
// `is_test`) as attributes, 12+ take `ratio` and `training_mode` as optional
// inputs; inference mode is all any of them computes here. Deviations: a
// `training_mode` input true with a non-zero ratio is rejected (errc::unsupported:
// by inference when both are constants, else by the kernel at run time)
// (onyx does not train); the mask is bool in every opset (7-9 typed it T).
// float8 data is not supported.
// Kernel (kernels/cpu/dropout.hpp): any storable type (data is copied).
// Tested in test/unit/dropout_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Dropout {
  static constexpr std::string_view domain = "", name = "Dropout";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 3}, outputs{1, 2};
  static constexpr dtype_set T = dtypes::floats;
  static constexpr dtype_set T1 = dtypes::floats;
  static constexpr dtype_set T2 = dtypes::boolean;
  struct attributes {
    float ratio = 0.5f;
    std::int64_t is_test = 0;
    std::int64_t seed = 0;
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
      if (const tensor* training = c.input_value(2); training && training->size() == 1 && training->data<bool>()[0]) {
        const tensor* ratio = c.has_input(1) ? c.input_value(1) : nullptr;
        bool zero = ratio && ratio->size() == 1 && ratio->type() == dtype::float32 && ratio->data<float>()[0] == 0;
        if (!zero) return status(errc::unsupported, "training_mode = true with a non-zero ratio (onyx runs inference only)");
      }
    }
    c.set_output(0, c.input(0));
    if (c.output_count() > 1) c.set_output(1, dtype::boolean, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
