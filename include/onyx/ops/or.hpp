// ops::Or: C = A || B elementwise on bool tensors with numpy broadcasting.
// Opsets 7-latest (1-6, with legacy `broadcast`/`axis` attributes, are not supported).
// Kernel (kernels/cpu/or.hpp). Tested in test/unit/logical_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Or {
  static constexpr std::string_view domain = "", name = "Or";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::boolean;
  static constexpr dtype_set T1 = dtypes::boolean;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    return infer_binary(c, T, "T", dtype::boolean);
  }
};

}  // namespace onyx::ops
