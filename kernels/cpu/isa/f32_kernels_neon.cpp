// The f32 micro-kernels compiled for neon (AArch64 Advanced SIMD, 4 lanes,
// 32 vector registers; part of the base ISA, so no flags). See f32_kernels.ipp.
//
// GEMM tile 8x12: 24 accumulators, 3 vectors of B and 2 of A (read by lane)
// in 29 of the 32 registers; 8 rows fit the output channels of a Conv
// (multiples of 8), 12 columns the 768-wide hidden sizes of BERT-style
// models. The narrow tile is 8x8 (Winograd blocks of few tiles).
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include <vector>

#include <xsimd/xsimd.hpp>

#include "kernels/cpu/isa/isa.hpp"

namespace onyx::kernels::cpu::isa::neon {

using vec = xsimd::batch<float, xsimd::neon64>;
#include "kernels/cpu/isa/f32_kernels.ipp"

void f32_gemm__neon_8x12(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                         int m, int n, const f32_gemm_params& p) {
  gemm_rows_of<8, 3>(kc, a, b, c, ldc, m, n, p);
}
void f32_gemm_packing__neon_8x12(std::int64_t kc, const float* a, const float* b, std::int64_t ldb, float* b_packed,
                        float* c, std::int64_t ldc, int m, int n, const f32_gemm_params& p) {
  gemm_rows_of<8, 3, true>(kc, a, b, c, ldc, m, n, p, ldb, b_packed);
}
void f32_gemm__neon_8x8(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                        int m, int n, const f32_gemm_params& p) {
  gemm_rows_of<8, 2>(kc, a, b, c, ldc, m, n, p);
}
void f32_gemm_pack__neon_x4(const float* src, std::int64_t ld, bool w_contiguous, std::int64_t wn, std::int64_t kn,
                        int width, float* dst, std::int64_t panel_stride) {
  gemm_pack(src, ld, w_contiguous, wn, kn, width, dst, panel_stride);
}
void f32_exp__neon_x4(const float* x, float* y, std::int64_t n) { exp_array(x, y, n); }
void f32_logistic__neon_x4(const float* x, float* y, std::int64_t n) { logistic_array(x, y, n); }
void f32_tanh__neon_x4(const float* x, float* y, std::int64_t n) { tanh_array(x, y, n); }
void f32_erf__neon_x4(const float* x, float* y, std::int64_t n) { erf_array(x, y, n); }
void f32_gelu__neon_x4(const float* x, float* y, std::int64_t n) { gelu_array(x, y, n); }
void f32_gelu_tanh__neon_x4(const float* x, float* y, std::int64_t n) { gelu_tanh_array(x, y, n); }
void f32_step__neon_x4(f32_step op, const float* a, float as, const float* b, float bs, float p, float q, float* y,
                        std::int64_t n) {
  elementwise_step(op, a, as, b, bs, p, q, y, n);
}
void f32_affine__neon_x4(const float* x, float scale, float shift, float lo, float hi, float* y, std::int64_t n) {
  affine_clamp(x, scale, shift, lo, hi, y, n);
}
void f32_hard_swish_form__neon_x4(const float* x, float c, float lo, float hi, float d, bool affine, float s, float t,
                        float* y, std::int64_t n) {
  hard_swish_form(x, c, lo, hi, d, affine, s, t, y, n);
}
void f32_layer_norm_row__neon_x4(const float* x, const float* skip, const float* add, float* sum, float* y,
                         std::int64_t n, const float* scale, const float* bias, float eps, float* stats) {
  layer_norm_row(x, skip, add, sum, y, n, scale, bias, eps, stats);
}
void f32_softmax_rows__neon_x4(const float* x, std::int64_t ldx, float* y, std::int64_t ldy, std::int64_t rows,
                        std::int64_t n, const float* bias, std::int64_t ldb, float* inv_sums) {
  softmax_rows(x, ldx, y, ldy, rows, n, bias, ldb, inv_sums);
}

void f32_winograd_f4k3_input__neon_x4(const winograd_input_args& a) { winograd_f4k3_input(a); }
void f32_winograd_f4k3_output__neon_x4(const winograd_output_args& a) { winograd_f4k3_output(a); }

void f32_dwconv__neon_x4(const dwconv_args& a) { dwconv(a); }

void f32_pool__neon_x4(const pool_args& a) { pool(a); }
void f32_gemm_few__neon_8x4(std::int64_t kc, const float* a, const float* b, std::int64_t b_k, std::int64_t b_j, float* c,
                        std::int64_t ldc, int m, int n, const f32_gemm_params& p) {
  gemm_few<8>(kc, a, b, b_k, b_j, c, ldc, m, n, p);
}
void f32_gemv__neon_x4(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y,
                        bool accumulate) {
  gemv(K, a, b, ldb, n, y, accumulate);
}
void f32_gemv_panels__neon_4x12(std::int64_t kc, const float* a, const float* b, std::int64_t panel_stride, std::int64_t n,
                        float* y, bool accumulate) {
  gemv_panels<3>(kc, a, b, panel_stride, n, y, accumulate);
}
void f32_dot_rows__neon_x4(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y) {
  dot_rows(K, a, b, ldb, n, y);
}
void f32_strided_copy__neon_x4(const float* src, std::int64_t stride, std::int64_t n, float* dst) {
  strided_copy(src, stride, n, dst);
}

extern const table kernel_table;
const table kernel_table = {
    .isa = level::neon,
    .gemm_name = "f32_gemm__neon_8x12",
    .gemm_mr = 8,
    .gemm_nr = 12,
    .f32_gemm = f32_gemm__neon_8x12,
    .f32_gemm_packing = f32_gemm_packing__neon_8x12,
    .gemm_narrow_nr = 8,
    .f32_gemm_narrow = f32_gemm__neon_8x8,
    .f32_gemm_pack = f32_gemm_pack__neon_x4,
    .f32_gemm_few = f32_gemm_few__neon_8x4,
    .f32_gemv = f32_gemv__neon_x4,
    .f32_gemv_panels = f32_gemv_panels__neon_4x12,
    .f32_dot_rows = f32_dot_rows__neon_x4,
    .f32_exp = f32_exp__neon_x4,
    .f32_logistic = f32_logistic__neon_x4,
    .f32_tanh = f32_tanh__neon_x4,
    .f32_erf = f32_erf__neon_x4,
    .f32_gelu = f32_gelu__neon_x4,
    .f32_gelu_tanh = f32_gelu_tanh__neon_x4,
    .f32_step = f32_step__neon_x4,
    .f32_affine = f32_affine__neon_x4,
    .f32_hard_swish_form = f32_hard_swish_form__neon_x4,
    .f32_layer_norm_row = f32_layer_norm_row__neon_x4,
    .f32_softmax_rows = f32_softmax_rows__neon_x4,
    .f32_dwconv = f32_dwconv__neon_x4,
    .f32_dwconv_w2 = nullptr,  // the strided plane split by phase instead
    .f32_dwconv_interleaved = nullptr,
    .dwconv_interleaved_lanes = 0,
    .f32_pool = f32_pool__neon_x4,
    .f32_strided_copy = f32_strided_copy__neon_x4,
    .f32_winograd_f4k3_input = f32_winograd_f4k3_input__neon_x4,
    .f32_winograd_f4k3_output = f32_winograd_f4k3_output__neon_x4,
};

}  // namespace onyx::kernels::cpu::isa::neon
