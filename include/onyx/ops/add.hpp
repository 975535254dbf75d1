// ops::Add: C = A + B with numpy broadcasting.
// Opsets 7-latest (7 introduced numpy broadcasting; 13 added bfloat16, 14 the
// 8/16-bit integers). Opsets 1-6 (legacy `broadcast`/`axis` attributes):
// ops::Add_v1, expanded into this op (ops/detail/legacy_broadcast.hpp).
// Kernel (kernels/cpu/add.hpp): every numeric type; float16/bfloat16
// computed in float. Inference computes small int64/int32/float32 results.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Add {
  static constexpr std::string_view domain = "", name = "Add";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T"));
    propagate_binary(c, [](auto a, auto b) { return a + b; });
    return ok();
  }
};

struct Add_v1 {
  static constexpr std::string_view domain = "", name = "Add";
  static constexpr int since = 1, until = 6;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  using attributes = detail::legacy_broadcast_attributes;
  static status infer(const attributes& a, infer_context& c) { return detail::legacy_broadcast_infer(a, c, T); }
  static status expand(const attributes& a, expand_context& c) { return detail::legacy_broadcast_expand(name, a, c); }
};

}  // namespace onyx::ops
