// ops::Identity: output = input, for tensors of any type, sequences and
// optionals. Opsets 1-latest (14 added sequences, 16 optionals, 19-21 the
// float8 and 4-bit types). Inference forwards a known input value.
// Kernel (kernels/cpu/identity.hpp): any tensor (a byte copy, nothing when
// planned in place); other values are shared.
// Tested in test/unit/identity_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Identity {
  static constexpr std::string_view domain = "", name = "Identity";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set V = dtypes::all;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    c.set_output(0, c.input(0));
    if (const tensor* v = c.input_value(0)) c.set_output_value(0, *v);
    return ok();
  }
};

}  // namespace onyx::ops
