// ops::Div: C = A / B with numpy broadcasting.
// Integer division truncates toward zero; an integer division by zero
// gives 0 (the spec leaves it undefined).
// Opsets 7-latest (7 introduced numpy broadcasting; 13 added bfloat16, 14 the
// 8/16-bit integers). Opsets 1-6 (legacy `broadcast`/`axis` attributes):
// ops::Div_v1, expanded into this op (ops/detail/legacy_broadcast.hpp).
// Kernel (kernels/cpu/div.hpp): every numeric type; float16/bfloat16
// computed in float. Inference computes small int64/int32/float32 results.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Div {
  static constexpr std::string_view domain = "", name = "Div";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::numeric;
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(infer_binary(c, T, "T"));
    propagate_binary(c, [](auto a, auto b) {
      using X = decltype(a);
      if constexpr (std::is_integral_v<X>) {
        if (b == 0) return X{};
        if (b == -1) return static_cast<X>(0 - static_cast<std::make_unsigned_t<X>>(a));
      }
      return static_cast<X>(a / b);
    });
    return ok();
  }
};

struct Div_v1 {
  static constexpr std::string_view domain = "", name = "Div";
  static constexpr int since = 1, until = 6;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats | dtypes::i32 | dtypes::i64 | dtypes::u32 | dtypes::u64;
  using attributes = detail::legacy_broadcast_attributes;
  static status infer(const attributes& a, infer_context& c) { return detail::legacy_broadcast_infer(a, c, T); }
  static status expand(const attributes& a, expand_context& c) { return detail::legacy_broadcast_expand(name, a, c); }
};

}  // namespace onyx::ops
