// The int8 GEMM micro-kernel for AVX-VNNI: the VEX-encoded (256-bit)
// vpdpbusd of Alder Lake and later cores without AVX-512 (and of Zen 5 and
// Sapphire Rapids beside it). Like the AVX-512 VNNI kernel it multiplies four
// unsigned bytes of A by four signed bytes of B and adds the four products to
// an int32 lane, exact for every input, on the same 4-byte-group panels; the
// tile is avx2's 6 x 16: 12 ymm accumulators, two B vectors (16 columns of
// four bytes) and one broadcast, 15 of the 16 registers. Compiled with
// -mavxvnni on top of the avx2 flags and chosen at the avx2 level only where
// CPUID reports AVX-VNNI (qgemm.cpp); the float helpers are avx2's.
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cpu/isa/q8.hpp"

namespace onyx::kernels::cpu::isa::avx2 {
void f32_minmax__avx2_x8(const float* x, std::int64_t n, float* lo, float* hi);
void f32_quantize_u8__avx2_x8(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y);
void q8_dequantize__avx2_x8(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                            const float* scale, const float* bias, std::int64_t step, float* y);
void qlinear_mul__avx2_x8(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, int za, int zb,
                          float scale, float zc, bool is_signed, std::uint8_t* y);
void qlinear_add__avx2_x8(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, float c0,
                          float ra, float rb, bool is_signed, std::uint8_t* y);
}  // namespace onyx::kernels::cpu::isa::avx2

namespace onyx::kernels::cpu::isa::avx2vnni {

#include "kernels/cpu/isa/q8_tile_avx2.ipp"

void u8s8_gemm__avx2vnni_6x16(std::int64_t groups, const void* av, const void* bv, std::int32_t* c, std::int64_t ldc,
                              int m, int n, bool accumulate, const void* prefetch) {
  gemm_6x16(groups, av, bv, c, ldc, m, n, accumulate, prefetch,
            [](__m256i acc, __m256i a, __m256i b) { return _mm256_dpbusd_avx_epi32(acc, a, b); });
}

#include "kernels/cpu/isa/q8_requantize.ipp"
#include "kernels/cpu/isa/q8_rows.ipp"

extern const q8_gemm_kernel q8_kernel{"u8s8_gemm__avx2vnni_6x16", 6, 16, 4, 1, 1, u8s8_gemm__avx2vnni_6x16,
                                      avx2::f32_minmax__avx2_x8, avx2::f32_quantize_u8__avx2_x8, requantize_row,
                                      depthwise_plane, interleave4, nullptr, nullptr, avx2::qlinear_mul__avx2_x8,
                                      avx2::qlinear_add__avx2_x8, avx2::q8_dequantize__avx2_x8};

}  // namespace onyx::kernels::cpu::isa::avx2vnni
