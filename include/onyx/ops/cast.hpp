// ops::Cast: output = input converted to the dtype in attribute `to`.
// Opsets 6-latest (opsets 1-5, where `to` was a string, are not supported).
// Covered types, both directions: every numeric type, bool, float16,
// bfloat16, string (to and from the numeric types and bool), the float8
// types, float8e8m0, float4e2m1 and the packed int4/uint4/int2/uint2. Not
// supported: complex types.
// Conversions: float -> int truncates toward zero (out-of-range values are
// undefined, as in the spec); x -> bool is x != 0; float -> string prints the
// shortest text that reads back the same value; string -> number parses like
// strtod/strtoll ("inf", "NaN" included; unparsable text gives 0).
// To float8/float4e2m1/float8e8m0: core/float8.hpp (round to nearest even,
// `saturate`; float8e8m0 by `round_mode`), from float64 through float32 (so a
// float64 may round twice). To int4/uint4/int2/uint2: floats round to nearest
// even, then (like every integer) keep the low bits (docs/technical/int4.md).
// Inference computes small int64/int32/float32 results.
// Kernel (kernels/cpu/cast.hpp), keyed by (input type, output type).
// Tested in test/unit/cast_test.cpp.
#pragma once

#include "onyx/ops/elementwise.hpp"

namespace onyx::ops {

/// Types Cast converts through the scalar codecs of core/float8.hpp and
/// core/packed.hpp rather than per (from, to) pair.
inline constexpr dtype_set codec_types = dtypes::float8 | dtypes::sub_byte | dtype_set{dtype::float8e8m0};
/// The element types Cast and CastLike convert between.
inline constexpr dtype_set castable = dtypes::numeric | dtypes::boolean | dtypes::string | codec_types;

namespace detail {
/// Cast of a small known int64/int32/float32/float64/bool tensor at inference.
inline std::optional<tensor> small_cast(const tensor& x, dtype to) {
  auto small = dtypes::i64 | dtypes::i32 | dtypes::f32 | dtypes::f64 | dtypes::boolean;
  if (!small.contains(x.type()) || !small.contains(to) || x.size() > max_propagated_elements) return std::nullopt;
  tensor y = tensor::zeros(to, x.shape());
  auto convert = [&](auto from) {
    using F = decltype(from);
    const F* xs = x.data<F>();
    for (std::int64_t i = 0; i < x.size(); ++i) switch (to) {
        case dtype::int64: y.data<std::int64_t>()[i] = static_cast<std::int64_t>(xs[i]); break;
        case dtype::int32: y.data<std::int32_t>()[i] = static_cast<std::int32_t>(xs[i]); break;
        case dtype::float32: y.data<float>()[i] = static_cast<float>(xs[i]); break;
        case dtype::float64: y.data<double>()[i] = static_cast<double>(xs[i]); break;
        default: y.data<bool>()[i] = xs[i] != F{}; break;
      }
  };
  switch (x.type()) {
    case dtype::int64: convert(std::int64_t{}); break;
    case dtype::int32: convert(std::int32_t{}); break;
    case dtype::float32: convert(float{}); break;
    case dtype::float64: convert(double{}); break;
    default: convert(bool{}); break;
  }
  return y;
}

inline status check_round_mode(const infer_context& c, const std::string& mode) {
  if (mode == "up" || mode == "down" || mode == "nearest") return ok();
  return c.fail("round_mode '" + mode + "' is none of up, down, nearest");
}

inline status infer_cast(infer_context& c, dtype to) {
  ONYX_TRY(require_type(c, 0, castable, "T1"));
  if (!castable.contains(to))
    return status(errc::unsupported, "cast to " + std::string(name(to)) + " is not supported");
  dtype from = c.input_type(0);
  if ((from == dtype::string && codec_types.contains(to)) || (to == dtype::string && codec_types.contains(from)))
    return status(errc::unsupported, "cast from " + std::string(name(from)) + " to " + std::string(name(to)) +
                                         " is not supported");
  c.set_output(0, to, c.input_shape(0));
  if (const tensor* v = c.input_value(0))
    if (auto y = small_cast(*v, to)) c.set_output_value(0, std::move(*y));
  return ok();
}
}  // namespace detail

struct Cast {
  static constexpr std::string_view domain = "", name = "Cast";
  static constexpr int since = 6, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = castable;
  static constexpr dtype_set T2 = castable;
  static constexpr std::array signature{in(0), out(0)};
  struct attributes {
    std::int64_t to = 0;
    std::int64_t saturate = 1;
    std::string round_mode = "up";
    static constexpr auto fields =
        std::tuple{field{"to", &attributes::to, true}, field{"saturate", &attributes::saturate},
                   field{"round_mode", &attributes::round_mode}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (!is_valid(static_cast<int>(a.to))) return c.fail("attribute to = " + std::to_string(a.to) + " is no ONNX type");
    ONYX_TRY(detail::check_round_mode(c, a.round_mode));
    return detail::infer_cast(c, static_cast<dtype>(a.to));
  }
};

}  // namespace onyx::ops
