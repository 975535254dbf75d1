// kernel<ops::QuantizeLinear, cpu>, kernel<ops::DequantizeLinear, cpu>: one
// body each, whatever the types: x is decoded in blocks by the Cast codecs
// (kernels/cpu/cast.hpp) into doubles, scale and zero point once into double
// arrays, and the results encoded as y's type. Keyed by x's type only; every
// instantiation calls the same function. Blocks split over the pool.
// The QDQ models' case has its own paths: float32 <-> uint8/int8 with one
// scale and zero point. QuantizeLinear runs the vector quantizer of the int8
// level (a true float division, round half to even, as the ONNX reference
// computes in float32); DequantizeLinear reads a 256-entry table of
// (q - zero) * scale, each entry the correctly rounded float product.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/cast.hpp"
#include "kernels/cpu/isa/q8.hpp"
#include "onyx/ops/dequantize_linear.hpp"
#include "onyx/ops/quantize_linear.hpp"

namespace onyx {

namespace kernels::cpu {

/// `v` rounded to the precision of float type `p` (float64: unchanged).
inline double round_to(dtype p, double v) {
  switch (p) {
    case dtype::float32: return static_cast<float>(v);
    case dtype::float16: return to_float(to_float16(static_cast<float>(v)));
    case dtype::bfloat16: return to_float(to_bfloat16(static_cast<float>(v)));
    default: return v;
  }
}

/// The saturation range of an integer quantized type; nullopt for floats.
inline std::optional<std::pair<double, double>> quant_range(dtype t) {
  switch (t) {
    case dtype::int8: return std::pair{-128.0, 127.0};
    case dtype::uint8: return std::pair{0.0, 255.0};
    case dtype::int16: return std::pair{-32768.0, 32767.0};
    case dtype::uint16: return std::pair{0.0, 65535.0};
    case dtype::int4: return std::pair{-8.0, 7.0};
    case dtype::uint4: return std::pair{0.0, 15.0};
    case dtype::int2: return std::pair{-2.0, 1.0};
    case dtype::uint2: return std::pair{0.0, 3.0};
    default: return std::nullopt;
  }
}

/// y[j] = f(x[j], scale index of j) for every element, through the codecs.
template <class F>
void map_quantized(const tensor& x, tensor& y, const ops::detail::quant_layout& q, const cast_options& o,
                   const thread_pool* pool, F f) {
  if (y.bytes() > 0) std::memset(y.raw(), 0, y.bytes());  // padding bits of packed outputs
  constexpr std::int64_t block = 256;
  std::int64_t blocks = (x.size() + block - 1) / block;
  // A block: 256 elements, about 4 units each (decode, scale, round, encode).
  parallel_for(pool, blocks, grain_for(4 * block), [&](std::int64_t first, std::int64_t last) {
    double v[block], r[block];
    std::int64_t k[block];
    for (std::int64_t blk = first; blk < last; ++blk) {
      std::int64_t b = blk * block, n = std::min(block, x.size() - b);
      decode_block(x, b, n, v, k);
      for (std::int64_t j = 0; j < n; ++j) {
        std::int64_t flat = b + j, i = flat % q.inner, rest = flat / q.inner;
        r[j] = f(v[j], q.scale_index(rest / q.n, rest % q.n, i));
      }
      encode_block(y, b, n, r, k, false, o);
    }
  });
}

/// What both ops read from their inputs: the layout of the scales over x, and
/// the scales and zero points (0 without input 2) as doubles.
struct quant_params {
  ops::detail::quant_layout layout;
  std::vector<double> scale, zero;
};

/// The params of call `c` (x, scale, optional zero point); `scale_name` and
/// `zero_name` are the inputs' spec names, for the error.
template <class Op>
result<quant_params> quant_params_of(const call<Op>& c, std::string_view scale_name, std::string_view zero_name) {
  const tensor &x = c.input(0), &s = c.input(1);
  ONYX_ASSIGN(auto layout, ops::detail::quant_layout_of(x.shape(), s.shape(), c.attrs().axis, c.attrs().block_size));
  quant_params p{layout, decode_all(s), {}};
  p.zero.assign(p.scale.size(), 0.0);
  if (c.has_input(2)) {
    if (!ops::detail::same_quant_shape(s.shape(), c.input(2).shape()))
      return status(errc::invalid_argument, std::string(zero_name) + " and " + std::string(scale_name) + " differ in shape");
    p.zero = decode_all(c.input(2));
  }
  return p;
}

/// Whether a Q/DQ call is the per-tensor 8-bit case of the fast paths.
inline bool per_tensor_q8(const tensor& q, const tensor& f, const kernel_call& c, std::int64_t block_size) {
  return (q.type() == dtype::uint8 || q.type() == dtype::int8) && f.type() == dtype::float32 &&
         c.input(1).type() == dtype::float32 && c.input(1).size() == 1 && block_size == 0 &&
         (!c.has_input(2) || (c.input(2).size() == 1 && c.input(2).type() == q.type()));
}

inline std::int32_t zero_point_of(const kernel_call& c, dtype t) {
  if (!c.has_input(2)) return 0;
  return t == dtype::int8 ? c.input(2).data<std::int8_t>()[0] : c.input(2).data<std::uint8_t>()[0];
}

inline status quantize_linear(const call<ops::QuantizeLinear>& c) {
  const auto& a = c.attrs();
  const tensor& x = c.input(0);
  const tensor& s = c.input(1);
  tensor& y = c.output(0);
  if (per_tensor_q8(y, x, c, a.block_size) && (a.precision == 0 || a.precision == static_cast<std::int64_t>(dtype::float32))) {
    const float scale = s.data<float>()[0];
    const bool is_signed = y.type() == dtype::int8;
    const float zero = static_cast<float>(zero_point_of(c, y.type()) + (is_signed ? 128 : 0));
    const float* xs = x.data<float>();
    auto* ys = static_cast<std::uint8_t*>(y.raw());
    const auto& k = isa::q8_active();
    // int8: the uint8 quantizer with the zero point moved up by 128, then the
    // sign bit flipped (clamp(v + 128, 0, 255) - 128 == clamp(v, -128, 127))
    parallel_for(c.pool(), x.size(), grain_for(2), [&](std::int64_t b, std::int64_t e) {
      k.f32_quantize_u8(xs + b, e - b, scale, zero, ys + b);
      if (is_signed)
        for (std::int64_t i = b; i < e; ++i) ys[i] ^= 0x80;
    });
    return ok();
  }
  ONYX_ASSIGN(auto p, quant_params_of(c, "y_scale", "y_zero_point"));
  const auto &scale = p.scale, &zero = p.zero;
  dtype precision = a.precision                      ? static_cast<dtype>(a.precision)
                    : s.type() == dtype::float8e8m0 ? dtype::float32
                    : s.type() == dtype::int32      ? dtype::float64
                                                    : s.type();
  auto range = quant_range(y.type());
  map_quantized(x, y, p.layout, make_cast_options(a.saturate, "up"), c.pool(), [&](double v, std::int64_t si) {
    double t = round_to(precision, v / scale[si]);
    if (!range) return t + zero[si];
    return std::clamp(std::nearbyint(t) + zero[si], range->first, range->second);
  });
  return ok();
}

inline status dequantize_linear(const call<ops::DequantizeLinear>& c) {
  const tensor& x = c.input(0);
  tensor& y = c.output(0);
  if (per_tensor_q8(x, y, c, c.attrs().block_size)) {
    const float scale = c.input(1).data<float>()[0];
    const std::int32_t zero = zero_point_of(c, x.type());
    const bool is_signed = x.type() == dtype::int8;
    float table[256];
    for (int b = 0; b < 256; ++b)
      table[b] = static_cast<float>((is_signed ? static_cast<std::int8_t>(b) : b) - zero) * scale;
    const auto* xs = static_cast<const std::uint8_t*>(x.raw());
    float* ys = y.data<float>();
    parallel_for(c.pool(), x.size(), grain_for(1), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) ys[i] = table[xs[i]];
    });
    return ok();
  }
  ONYX_ASSIGN(auto p, quant_params_of(c, "x_scale", "x_zero_point"));
  const auto &scale = p.scale, &zero = p.zero;
  map_quantized(x, y, p.layout, cast_options{}, c.pool(), [&](double v, std::int64_t si) {
    return round_to(y.type(), (v - zero[si]) * scale[si]);
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QuantizeLinear, cpu> {
  static constexpr std::array types{ops::QuantizeLinear::T1};
  template <ops::signature> static status run(const call<ops::QuantizeLinear>& c) {
    return kernels::cpu::quantize_linear(c);
  }
};

template <> struct kernel<ops::DequantizeLinear, cpu> {
  static constexpr std::array types{ops::DequantizeLinear::T1};
  template <ops::signature> static status run(const call<ops::DequantizeLinear>& c) {
    return kernels::cpu::dequantize_linear(c);
  }
};

}  // namespace onyx
