// kernel<ops::MatMulIntegerToFloat, cpu>: the int8 GEMM of kernels/cpu/qgemm.hpp
// (B packed at prepare when constant) with the float epilogue below.
// kernel<ops::DynamicQuantizeMatMul, cpu>, kernel<ops::fused::DynamicQuantizeConv, cpu>:
// the float input quantized to uint8 on the fly (dynamic_quantize, exactly as
// DynamicQuantizeLinear), the int8 GEMM against the 8-bit weights (packed
// once at prepare), and each finished tile (where the kernel has
// gemm_float; else each finished block) turned into float with the scales'
// product and the bias:
//   y = float(acc) * float(x_scale * w_scale[j]) + bias[j]
// each step rounded to float as the unfused Cast -> Mul -> Add chain rounds.
// The onyx.fused twins of the two MatMuls (the same kernels, through
// dynamic_quantize_mat_mul_kernel / mat_mul_integer_to_float_kernel) then
// map the Gelu kernel's own function (isa::table::f32_gelu, f32_gelu_tanh of
// isa::active()) over each row of the float tile just written, so their
// outputs are bit for bit those of the op followed by a Gelu node.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/dynamic_quantize_linear.hpp"
#include "kernels/cpu/integer_conv.hpp"
#include "kernels/cpu/mat_mul_integer.hpp"
#include "onyx/ops/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/conv_integer_to_float.hpp"
#include "onyx/ops/fused/dynamic_quantize_conv.hpp"
#include "onyx/ops/fused/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/mat_mul_integer_to_float.hpp"
#include "onyx/ops/mat_mul_integer_to_float.hpp"

namespace onyx {

namespace kernels::cpu {

/// A float input per index (scalar repeated to `count`), or all `fallback`.
inline result<std::vector<float>> float_per_index(const kernel_call& c, int i, std::int64_t count, float fallback,
                                                  const char* what) {
  std::vector<float> v(static_cast<std::size_t>(count), fallback);
  if (!c.has_input(i)) return v;
  const tensor& t = c.input(i);
  if (t.size() == 1) return std::vector<float>(v.size(), t.data<float>()[0]);
  if (t.size() != count)
    return status(errc::invalid_argument, std::string(what) + " of shape " + sym_shape(t.shape()).str() +
                                              " is neither a scalar nor a vector of " + std::to_string(count));
  std::memcpy(v.data(), t.data<float>(), v.size() * sizeof(float));
  return v;
}

/// A finished block in float: y[r][j] = float(acc[r][j]) * scale[j * step]
/// (+ bias[j * step]), row r of the block at y + r * ld; scale and bias
/// (null: none) start at the block's first column (step 1), or are one value
/// for every element (step 0). Two roundings, as Cast -> Mul -> Add. Then
/// `then` (null: none) over each row just written.
inline void write_dequantized(const q8_block& blk, float* y, std::int64_t ld, const float* scale, const float* bias,
                              isa::f32_unary_fn then = nullptr, std::int64_t step = 1) {
  const isa::q8_dequantize_fn row = isa::q8_active().dequantize;
  for (std::int64_t r = 0; r < blk.rows; ++r) {
    float* yr = y + r * ld;
    if (row) {
      row(blk.acc + r * blk.ld, blk.cols, blk.col_add, blk.row_term(r), scale, bias, step, yr);
    } else {
      const auto exact = [&](std::int64_t j) { return static_cast<float>(blk.at(r, j)); };
      if (bias) {
        for (std::int64_t j = 0; j < blk.cols; ++j) {
          const float v = exact(j) * scale[j * step];
          yr[j] = v + bias[j * step];
        }
      } else {
        for (std::int64_t j = 0; j < blk.cols; ++j) yr[j] = exact(j) * scale[j * step];
      }
    }
    if (then) then(yr, yr, blk.cols);
  }
}

/// Grow-only per-thread buffer for the quantized copy of a float input.
inline std::uint8_t* quantized_buffer(std::int64_t bytes) {
  thread_local std::vector<std::uint8_t> buffer;
  if (buffer.size() < static_cast<std::size_t>(bytes)) buffer.resize(static_cast<std::size_t>(bytes));
  return buffer.data();
}

/// The function an op applies to its finished float tiles: the fused twins'
/// `then`, from the f32 table the Gelu kernel runs; null for the com.microsoft ops.
template <class Attributes> isa::f32_unary_fn then_of(const Attributes& a) {
  if constexpr (requires { a.then; }) {
    using fn = ops::fused::MatMul::function;
    if (a.then == fn::gelu) return isa::active().f32_gelu;
    if (a.then == fn::gelu_tanh) return isa::active().f32_gelu_tanh;
  }
  return nullptr;
}

/// DynamicQuantizeMatMul and its fused twin.
template <class Op> struct dynamic_quantize_mat_mul_kernel {
  static constexpr std::array types{Op::T2};
  using state = q8_matmul_state;
  template <ops::signature> static result<state> prepare(const prepare_info<Op>& p) { return prepare_q8_b(p, 1); }
  template <ops::signature> static status run(const call<Op>& c) {
    const tensor& a = c.input(0);
    const tensor& b = c.input(1);
    tensor& y = c.output(0);
    const std::int64_t n = b.dim(1);
    if (y.size() == 0) return ok();
    ONYX_ASSIGN(auto b_scale, float_per_index(c, 2, n, 1.0f, "b_scale"));
    ONYX_ASSIGN(auto bias, float_per_index(c, 4, n, 0.0f, "bias"));
    std::uint8_t* aq = quantized_buffer(a.size());
    const auto [a_scale, a_zero] = dynamic_quantize(a.data<float>(), a.size(), aq, c.pool());
    std::vector<float> scale(static_cast<std::size_t>(n));
    for (std::size_t j = 0; j < scale.size(); ++j) scale[j] = a_scale * b_scale[j];
    float* out = y.data<float>();
    const bool has_bias = c.has_input(4);
    const isa::f32_unary_fn then = then_of(c.attrs());
    return q8_matmul(
        c, aq, dtype::uint8, a.shape(), {a_zero}, 1, 3,
        [&](std::int64_t at, const q8_block& blk) {
          write_dequantized(blk, out + at, n, scale.data() + blk.j0, has_bias ? bias.data() + blk.j0 : nullptr, then);
        },
        q8_float_out{out, n, scale.data(), has_bias ? bias.data() : nullptr, then});
  }
};

/// MatMulIntegerToFloat and its fused twin.
template <class Op> struct mat_mul_integer_to_float_kernel {
  static constexpr std::array types{Op::T1};
  using state = q8_matmul_state;
  template <ops::signature> static result<state> prepare(const prepare_info<Op>& p) { return prepare_q8_b(p, 1); }
  template <ops::signature> static status run(const call<Op>& c) {
    const tensor& b = c.input(1);
    const tensor& a_scales = c.input(2);
    tensor& y = c.output(0);
    if (y.size() == 0) return ok();
    const std::int64_t n = b.rank() >= 2 ? b.dim(b.rank() - 1) : 1;
    if (a_scales.size() != 1)
      return status(errc::unsupported, "a_scale per column of A is not supported (it cannot leave the sum over K); "
                                       "got " + std::to_string(a_scales.size()) + " values");
    const float a_scale = a_scales.data<float>()[0];
    ONYX_ASSIGN(auto b_scale, float_per_index(c, 3, n, 1.0f, "b_scale"));
    ONYX_ASSIGN(auto bias, float_per_index(c, 6, n, 0.0f, "bias"));
    std::vector<float> scale(static_cast<std::size_t>(n));
    for (std::size_t j = 0; j < scale.size(); ++j) scale[j] = a_scale * b_scale[j];
    float* out = y.data<float>();
    const bool has_bias = c.has_input(6);
    const isa::f32_unary_fn then = then_of(c.attrs());
    return q8_matmul(
        c, 0, 1, 4, 5,
        [&](std::int64_t at, const q8_block& blk) {
          write_dequantized(blk, out + at, n, scale.data() + blk.j0, has_bias ? bias.data() + blk.j0 : nullptr, then);
        },
        q8_float_out{out, n, scale.data(), has_bias ? bias.data() : nullptr, then});
  }
};

/// A finished convolution block in float: row r (output channel oc + r) of
/// the block at out + at + r * plane, y = float(acc) * scale[oc + r]
/// (+ bias[oc + r]), each row by write_dequantized with the row's one scale
/// and bias.
inline void write_conv_dequantized(const q8_block& blk, float* out, std::int64_t at, std::int64_t plane,
                                   std::int64_t oc, const float* scale, const float* bias) {
  for (std::int64_t r = 0; r < blk.rows; ++r) {
    q8_block row = blk;
    row.rows = 1;
    row.acc = blk.acc + r * blk.ld;
    if (blk.row_add) row.row_add = blk.row_add + r;
    write_dequantized(row, out + at + r * plane, plane, scale + oc + r, bias ? bias + oc + r : nullptr, nullptr, 0);
  }
}

}  // namespace kernels::cpu

template <>
struct kernel<ops::DynamicQuantizeMatMul, cpu>
    : kernels::cpu::dynamic_quantize_mat_mul_kernel<ops::DynamicQuantizeMatMul> {};
template <>
struct kernel<ops::fused::DynamicQuantizeMatMul, cpu>
    : kernels::cpu::dynamic_quantize_mat_mul_kernel<ops::fused::DynamicQuantizeMatMul> {};
template <>
struct kernel<ops::MatMulIntegerToFloat, cpu> : kernels::cpu::mat_mul_integer_to_float_kernel<ops::MatMulIntegerToFloat> {};
template <>
struct kernel<ops::fused::MatMulIntegerToFloat, cpu>
    : kernels::cpu::mat_mul_integer_to_float_kernel<ops::fused::MatMulIntegerToFloat> {};

namespace kernels::cpu {
/// The two convolutions that leave in float: X (as bytes, type, shape and
/// zero points) against W (input w_in, zero points zw_in), each block
/// written as y = float(acc) * (x_scale * w_scale[m]) (+ B[m]).
inline status q8_conv_to_float(const kernel_call& c, const ops::detail::conv_attributes& attrs, const std::uint8_t* xb,
                               dtype x_type, const extents& x_shape, const std::vector<std::int32_t>& zx, float x_scale,
                               int w_in, int zw_in, int w_scale_in, int bias_in) {
  tensor& y = c.output(0);
  const std::int64_t m = c.input(w_in).dim(0), plane = out_plane_of(y.shape());
  ONYX_ASSIGN(auto w_scale, float_per_index(c, w_scale_in, m, 1.0f, "w_scale"));
  ONYX_ASSIGN(auto bias, float_per_index(c, bias_in, m, 0.0f, "B"));
  std::vector<float> scale(static_cast<std::size_t>(m));
  for (std::size_t i = 0; i < scale.size(); ++i) scale[i] = x_scale * w_scale[i];
  float* out = y.data<float>();
  const float* b = c.has_input(bias_in) ? bias.data() : nullptr;
  return q8_conv(c, attrs, xb, x_type, x_shape, zx, w_in, zero_points(c, zw_in), y.shape(),
                 [&](std::int64_t at, std::int64_t oc, const q8_block& blk) {
                   write_conv_dequantized(blk, out, at, plane, oc, scale.data(), b);
                 });
}
}  // namespace kernels::cpu

/// X float, quantized on the fly: inputs X, W, w_scale, w_zero_point, B.
template <> struct kernel<ops::fused::DynamicQuantizeConv, cpu> {
  static constexpr std::array types{ops::fused::DynamicQuantizeConv::T2};
  using state = kernels::cpu::q8_conv_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::fused::DynamicQuantizeConv>& p) {
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 1, 3);
  }
  template <ops::signature> static status run(const call<ops::fused::DynamicQuantizeConv>& c) {
    using namespace kernels::cpu;
    const tensor& x = c.input(0);
    if (c.output(0).size() == 0) return ok();
    std::uint8_t* xq = quantized_buffer(x.size());
    const auto [x_scale, x_zero] = dynamic_quantize(x.data<float>(), x.size(), xq, c.pool());
    return q8_conv_to_float(c, c.attrs(), xq, dtype::uint8, x.shape(), {x_zero}, x_scale, 1, 3, 2, 4);
  }
};

/// X 8-bit: inputs X, W, x_scale, w_scale, x_zero_point, w_zero_point, B.
template <> struct kernel<ops::fused::ConvIntegerToFloat, cpu> {
  static constexpr std::array types{ops::fused::ConvIntegerToFloat::T2};
  using state = kernels::cpu::q8_conv_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::fused::ConvIntegerToFloat>& p) {
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 1, 5);
  }
  template <ops::signature> static status run(const call<ops::fused::ConvIntegerToFloat>& c) {
    using namespace kernels::cpu;
    const tensor& x = c.input(0);
    const tensor& x_scale = c.input(2);
    if (c.output(0).size() == 0) return ok();
    if (x_scale.size() != 1)
      return status(errc::invalid_argument, "ConvIntegerToFloat: x_scale must be one value, got " +
                                                std::to_string(x_scale.size()));
    return q8_conv_to_float(c, c.attrs(), static_cast<const std::uint8_t*>(x.raw()), x.type(), x.shape(),
                            zero_points(c, 4), x_scale.data<float>()[0], 1, 5, 3, 6);
  }
};

}  // namespace onyx
