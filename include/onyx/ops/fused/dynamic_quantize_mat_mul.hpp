// ops::fused::DynamicQuantizeMatMul (domain onyx.fused): com.microsoft
// DynamicQuantizeMatMul (ops/dynamic_quantize_mat_mul.hpp: the same inputs,
// types and shape rule) with a GELU applied to its float output,
//   Y = f(DynamicQuantizeMatMul(A, B, b_scale, b_zero_point, bias))
// f as fused::MatMul's `activation`: "" | "Gelu" | "GeluTanh". Made by
// graph/passes/fuse_matmul.hpp from DynamicQuantizeMatMul -> Gelu; the kernel
// (kernels/cpu/dynamic_quantize_gemm.hpp) maps the Gelu kernel's function over
// each finished float tile, so the outputs are those of the two nodes.
// Tested in test/unit/fuse_quantized_test.cpp.
#pragma once

#include "onyx/ops/dynamic_quantize_mat_mul.hpp"
#include "onyx/ops/fused/mat_mul.hpp"

namespace onyx::ops::fused {

struct DynamicQuantizeMatMul : detail::with_activation<ops::DynamicQuantizeMatMul> {};

}  // namespace onyx::ops::fused
