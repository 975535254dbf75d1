// ops::QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), per
// tensor, per axis or per block (ops/detail/quantize.hpp); rounding to
// nearest even, saturating to the integer type's range. Float8 and
// float4e2m1 outputs convert x / y_scale + y_zero_point as Cast does
// (core/float8.hpp; `saturate` for float8).
// The output type is `output_dtype`, else y_zero_point's, else uint8.
// The division runs in `precision`'s type, else y_scale's (float32 for a
// float8e8m0 scale).
// Opsets 10-latest in one struct: the later opsets only added axis (13),
// float8 + saturate (19), blocking, int4/uint4, int16/uint16, output_dtype
// (21), float4e2m1 (23), float8e8m0 scales (24), int2/uint2 and precision (25).
// Kernel (kernels/cpu/quantize_linear.hpp): every listed type, converted by
// the Cast codecs outside the element loop's type dispatch.
// Tested in test/unit/quantize_linear_test.cpp.
#pragma once

#include "onyx/ops/detail/quantize.hpp"

namespace onyx::ops {

struct QuantizeLinear {
  static constexpr std::string_view domain = "", name = "QuantizeLinear";
  static constexpr int since = 10, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::f32 | dtypes::f16 | dtypes::bf16 | dtypes::i32;
  static constexpr dtype_set T2 = T1 | dtype_set{dtype::float8e8m0};
  static constexpr dtype_set T3 = dtypes::i8 | dtypes::u8 | dtypes::i16 | dtypes::u16 | dtypes::float8 |
                                  dtypes::sub_byte;
  struct attributes {
    std::int64_t axis = 1;
    std::int64_t block_size = 0;
    std::int64_t output_dtype = 0;
    std::int64_t precision = 0;
    std::int64_t saturate = 1;
    static constexpr auto fields = std::tuple{
        field{"axis", &attributes::axis}, field{"block_size", &attributes::block_size},
        field{"output_dtype", &attributes::output_dtype}, field{"precision", &attributes::precision},
        field{"saturate", &attributes::saturate}};
  };
  static result<dtype> output_type(const attributes& a, const infer_context& c) {
    bool has_zero = c.input_count() > 2 && c.has_input(2);
    dtype t = a.output_dtype ? static_cast<dtype>(a.output_dtype) : has_zero ? c.input_type(2) : dtype::uint8;
    if (a.output_dtype && has_zero && c.input_type(2) != t)
      return c.fail("output_dtype " + std::string(onyx::name(t)) + " differs from y_zero_point's type " +
                    std::string(onyx::name(c.input_type(2))));
    if (!is_valid(static_cast<int>(a.output_dtype)) && a.output_dtype)
      return c.fail("output_dtype " + std::to_string(a.output_dtype) + " is no ONNX type");
    if (!T3.contains(t)) return c.fail("output type " + std::string(onyx::name(t)) + " is not a quantized type (T3)");
    return t;
  }
  static status infer(const attributes& a, infer_context& c) {
    ONYX_TRY(require_type(c, 0, T1, "T1"));
    ONYX_TRY(require_type(c, 1, T2, "T2"));
    if (a.precision && !(dtypes::floats | dtypes::i32).contains(static_cast<dtype>(a.precision)))
      return c.fail("precision " + std::to_string(a.precision) + " is not a float type");
    ONYX_ASSIGN(dtype t, output_type(a, c));
    ONYX_TRY(detail::check_quant_shapes(c, a.axis, a.block_size));
    c.set_output(0, t, c.input_shape(0));
    return ok();
  }
};

}  // namespace onyx::ops
