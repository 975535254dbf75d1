// ops::Pow: Z = X ^ Y with numpy broadcasting; Z has X's type.
// Opsets 7-latest (12 let the exponent type T1 differ from T, 13/15 added
// bfloat16). Opsets 1-6 (legacy `broadcast`/`axis` attributes): ops::Pow_v1,
// expanded into this op (ops/detail/legacy_broadcast.hpp).
// Kernel (kernels/cpu/pow.hpp): T float32/float64/float16/bfloat16/int32/int64
// by any numeric T1; integer ^ integer is exact (repeated squaring, negative
// exponents give 0 unless |x| = 1), everything else goes through std::pow.
// Tested in test/unit/binary_arithmetic_test.cpp.
#pragma once

#include "onyx/ops/detail/legacy_broadcast.hpp"
#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

struct Pow {
  static constexpr std::string_view domain = "", name = "Pow";
  static constexpr int since = 7, until = latest;
  static constexpr arity inputs{2, 2}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::i32 | dtypes::i64 | dtypes::floats;
  static constexpr dtype_set T1 = dtypes::numeric;
  static constexpr std::array signature{in(0), in(1)};
  struct attributes {};
  static status infer(const attributes&, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T, "T"));
    ONYX_TRY(require_type(c, 1, T1, "T1"));
    ONYX_ASSIGN(auto s, broadcast(c.input_shape(0), c.input_shape(1)));
    c.set_output(0, c.input_type(0), std::move(s));
    return ok();
  }
};

struct Pow_v1 : detail::legacy_broadcast_op<"Pow", dtypes::f16 | dtypes::f32 | dtypes::f64> {};

}  // namespace onyx::ops
