// ops::fused::MatMulIntegerToFloat (domain onyx.fused): com.microsoft
// MatMulIntegerToFloat (ops/mat_mul_integer_to_float.hpp: the same inputs,
// types and shape rule) with a GELU applied to its float output,
//   Y = f(MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias))
// f as fused::MatMul's `activation`: "" | "Gelu" | "GeluTanh". Made by
// graph/passes/fuse_matmul.hpp from MatMulIntegerToFloat -> Gelu; the kernel
// (kernels/cpu/dynamic_quantize_gemm.hpp) maps the Gelu kernel's function over
// each finished float tile, so the outputs are those of the two nodes.
// Tested in test/unit/fuse_quantized_test.cpp.
#pragma once

#include "onyx/ops/fused/mat_mul.hpp"
#include "onyx/ops/mat_mul_integer_to_float.hpp"

namespace onyx::ops::fused {

struct MatMulIntegerToFloat : detail::with_activation<ops::MatMulIntegerToFloat> {};

}  // namespace onyx::ops::fused
