// ops::DequantizeLinear: y = (x - x_zero_point) * x_scale, per tensor, per
// axis or per block (ops/detail/quantize.hpp). The output type is
// `output_dtype`, else x_scale's (float32 for a float8e8m0 scale); the
// product is rounded to it once.
// Opsets 10-latest in one struct: the later opsets only added axis (13),
// float8 (19), blocking, int4/uint4, int16/uint16 (21), float4e2m1 (23),
// float8e8m0 scales and output_dtype (24), int2/uint2 (25).
// Kernel (kernels/cpu/dequantize_linear.hpp): every listed type, decoded by
// the Cast codecs. Tested in test/unit/quantize_linear_test.cpp.
#pragma once

#include "onyx/ops/detail/quantize.hpp"

namespace onyx::ops {

struct DequantizeLinear {
  static constexpr std::string_view domain = "", name = "DequantizeLinear";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::i8 | dtypes::u8 | dtypes::i16 | dtypes::u16 | dtypes::i32 |
                                  dtypes::float8 | dtypes::sub_byte;
  static constexpr dtype_set T2 = dtypes::f32 | dtypes::f16 | dtypes::bf16 | dtype_set{dtype::float8e8m0};
  static constexpr dtype_set T3 = dtypes::f32 | dtypes::f16 | dtypes::bf16;
  struct attributes {
    std::int64_t axis = 1;
    std::int64_t block_size = 0;
    std::int64_t output_dtype = 0;
    static constexpr auto fields =
        std::tuple{field{"axis", &attributes::axis}, field{"block_size", &attributes::block_size},
                   field{"output_dtype", &attributes::output_dtype}};
  };
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    if (c.input_count() > 2 && c.has_input(2) && c.input_type(2) != c.input_type(0))
      return c.fail("x_zero_point has type " + std::string(onyx::name(c.input_type(2))) + " but x has " +
                    std::string(onyx::name(c.input_type(0))));
    dtype t = a.output_dtype ? static_cast<dtype>(a.output_dtype)
              : c.input_type(1) == dtype::float8e8m0 ? dtype::float32
                                                      : c.input_type(1);
    if (!is_valid(static_cast<int>(t)) || !T3.contains(t))
      return c.fail("output type " + std::to_string(static_cast<int>(t)) + " is not float, float16 or bfloat16");
    ONYX_TRY(detail::check_quant_shapes(c, a.axis, a.block_size));
    c.set_output(0, t, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
