// The int8 GEMM micro-kernels for avx2, both a 6 x 16 tile (12 ymm
// accumulators, two B vectors and one broadcast of 16 registers):
//   u8s8_gemm__avx2_6x16: operands widened to int16 at packing, pairs of K
//     steps multiplied and added by vpmaddwd into int32. Exact for every
//     8-bit input (255 * 128 * 2 fits int32); q8_active's pick at this level.
//   u8s8_gemm__avx2_6x16c4: bytes as they are, in groups of four K steps
//     (the VNNI layout): vpmaddubsw multiplies and adds pairs into int16,
//     vpmaddwd against ones adds the two pairs of a group into int32. Twice
//     the products per instruction (Zen 3: 104-109 against 55-59 GOP/s in a
//     register-only loop of the tile's shape), but a pair sum saturates
//     int16 unless |b0| + |b1| <= 128, so it is pair-bound (q8.hpp): packing
//     moves the excess of the pairs over the bound into fixes, added after
//     the tile by fixup_6x16. For constant weights (q8_pack_weights), where
//     such pairs are rare.
//   s8u8_conv__avx2_6x16c4: the direct convolution (q8_conv_fn) on the same
//     instructions, the weights as the pair-bound operand (conv_fixup).
#include <immintrin.h>

#include <cstdint>
#include <type_traits>
#include <cstring>

#include "kernels/cpu/isa/q8.hpp"

namespace onyx::kernels::cpu::isa::avx2 {

#include "kernels/cpu/isa/q8_tile_avx2.ipp"

void u8s8_gemm__avx2_6x16(std::int64_t groups, const void* av, const void* bv, std::int32_t* c, std::int64_t ldc,
                          int m, int n, bool accumulate, const void* prefetch) {
  gemm_6x16(groups, av, bv, c, ldc, m, n, accumulate, prefetch, [](__m256i acc, __m256i a, __m256i b) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));  // two int16 pairs per lane
  });
}

// Four unsigned bytes of A against four signed bytes of B per int32 lane:
// pairs into int16 (vpmaddubsw), then the two pairs into int32 against ones.
// The ones are vpmaddwd's memory operand, not a register: 12 accumulators,
// two B vectors, the broadcast and the product take the 16, and a 17th made
// GCC keep accumulators on the stack (one in the loop of one group, all of
// them in gemm_6x16's loop of two).
alignas(32) constexpr std::int16_t k_ones16[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
[[gnu::always_inline]] inline __m256i maddubs_add(__m256i acc, __m256i a, __m256i b) {
  __m256i pairs = _mm256_maddubs_epi16(a, b);
  asm("vpmaddwd %1, %0, %0" : "+x"(pairs) : "m"(*reinterpret_cast<const __m256i*>(k_ones16)));
  return _mm256_add_epi32(acc, pairs);
}

// u8s8_gemm__avx2_6x16c4's loop in assembly, two K groups an iteration
// (tile_group_6x16's steps with maddubs_add): ymm0-5 and ymm6-11 the left and
// right halves of rows 0-5, ymm12-13 B's group, ymm14 A's broadcast, ymm15
// the products. GCC's register allocation of the same loop moved with the
// code around it: one accumulator on the stack with the ones in a register,
// all twelve when it was unrolled; written out, the loop is 47 instructions
// a group whatever GCC does. With `prefetch`, the next panel's two lines per
// iteration (one per group, as gemm_6x16 fetches).
#define ONYX_Q8_ROW(I, CA, CB) \
  "vpbroadcastd \\u*24+" #I "*4(%[a]), %%ymm14\n\t" \
  "vpmaddubsw %%ymm12, %%ymm14, %%ymm15\n\t" "vpmaddwd %[ones], %%ymm15, %%ymm15\n\t" \
  "vpaddd %%ymm15, %%" CA ", %%" CA "\n\t" \
  "vpmaddubsw %%ymm13, %%ymm14, %%ymm15\n\t" "vpmaddwd %[ones], %%ymm15, %%ymm15\n\t" \
  "vpaddd %%ymm15, %%" CB ", %%" CB "\n\t"
#define ONYX_Q8_GROUP \
  "vmovdqu \\u*64(%[b]), %%ymm12\n\t" "vmovdqu \\u*64+32(%[b]), %%ymm13\n\t" \
  ONYX_Q8_ROW(0, "ymm0", "ymm6") ONYX_Q8_ROW(1, "ymm1", "ymm7") ONYX_Q8_ROW(2, "ymm2", "ymm8") \
  ONYX_Q8_ROW(3, "ymm3", "ymm9") ONYX_Q8_ROW(4, "ymm4", "ymm10") ONYX_Q8_ROW(5, "ymm5", "ymm11")
#define ONYX_Q8_LOOP(PREFETCH) \
  asm volatile( \
      "vpxor %%xmm0, %%xmm0, %%xmm0\n\t" "vpxor %%xmm1, %%xmm1, %%xmm1\n\t" "vpxor %%xmm2, %%xmm2, %%xmm2\n\t" \
      "vpxor %%xmm3, %%xmm3, %%xmm3\n\t" "vpxor %%xmm4, %%xmm4, %%xmm4\n\t" "vpxor %%xmm5, %%xmm5, %%xmm5\n\t" \
      "vpxor %%xmm6, %%xmm6, %%xmm6\n\t" "vpxor %%xmm7, %%xmm7, %%xmm7\n\t" "vpxor %%xmm8, %%xmm8, %%xmm8\n\t" \
      "vpxor %%xmm9, %%xmm9, %%xmm9\n\t" "vpxor %%xmm10, %%xmm10, %%xmm10\n\t" "vpxor %%xmm11, %%xmm11, %%xmm11\n\t" \
      "test %[n], %[n]\n\t" "jz 2f\n\t" \
      "1:\n\t" PREFETCH ".irp u,0,1\n\t" ONYX_Q8_GROUP ".endr\n\t" \
      "add $48, %[a]\n\t" "add $128, %[b]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" \
      "2:\n\t" "test %[odd], %[odd]\n\t" "jz 3f\n\t" ".irp u,0\n\t" ONYX_Q8_GROUP ".endr\n\t" "3:\n\t" \
      "vmovdqa %%ymm0, (%[t])\n\t" "vmovdqa %%ymm6, 32(%[t])\n\t" "vmovdqa %%ymm1, 64(%[t])\n\t" \
      "vmovdqa %%ymm7, 96(%[t])\n\t" "vmovdqa %%ymm2, 128(%[t])\n\t" "vmovdqa %%ymm8, 160(%[t])\n\t" \
      "vmovdqa %%ymm3, 192(%[t])\n\t" "vmovdqa %%ymm9, 224(%[t])\n\t" "vmovdqa %%ymm4, 256(%[t])\n\t" \
      "vmovdqa %%ymm10, 288(%[t])\n\t" "vmovdqa %%ymm5, 320(%[t])\n\t" "vmovdqa %%ymm11, 352(%[t])\n\t" \
      : [a] "+r"(a), [b] "+r"(b), [n] "+r"(pairs), [pf] "+r"(pf) \
      : [odd] "r"(groups & 1), [t] "r"(t), [ones] "m"(*reinterpret_cast<const __m256i*>(k_ones16)) \
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", \
        "xmm13", "xmm14", "xmm15", "memory", "cc")

void u8s8_gemm__avx2_6x16c4(std::int64_t groups, const void* av, const void* bv, std::int32_t* c, std::int64_t ldc,
                            int m, int n, bool accumulate, const void* prefetch) {
  const auto* a = static_cast<const std::uint8_t*>(av);
  const auto* b = static_cast<const std::uint8_t*>(bv);
  const char* pf = static_cast<const char*>(prefetch);
  std::int64_t pairs = groups / 2;
  alignas(32) std::int32_t t[6][16];  // row i: ymm i, then ymm 6 + i
  if (pf)
    ONYX_Q8_LOOP("prefetcht0 (%[pf])\n\t" "prefetcht0 64(%[pf])\n\t" "add $128, %[pf]\n\t");
  else
    ONYX_Q8_LOOP("");
  store_tile_6x16(t, c, ldc, m, n, accumulate);
}
#undef ONYX_Q8_LOOP
#undef ONYX_Q8_GROUP
#undef ONYX_Q8_ROW

// The fixes of one panel (q8.hpp, q8_fixup_fn) added to the int32 tile at c:
// each one group of the tile's own loop, all of them summed in registers and
// added to c once (a load, add and store of the tile per fix had made this
// 4% of int8 BERT-12's run at this level; int32 sums, so the same result).
void fixup_6x16(const q8_fix* fixes, std::int64_t count, std::int64_t p0, const void* av, std::int32_t* c,
                std::int64_t ldc, int m, int n) {
  if (count == 0) return;
  const auto* a = static_cast<const std::uint8_t*>(av);
  __m256i c0[6], c1[6];
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) c0[i] = c1[i] = _mm256_setzero_si256();
  for (std::int64_t f = 0; f < count; ++f)
    tile_group_6x16(c0, c1, a + (fixes[f].group - p0) * 6 * 4, reinterpret_cast<const std::uint8_t*>(fixes[f].b),
                    maddubs_add);
  store_tile_6x16(c0, c1, c, ldc, m, n, true);
}

// The direct convolution's tile (q8_conv_fn) with the operands' roles
// turned around for vpmaddubsw, whose unsigned operand is the vector one: b,
// the input, unsigned (16 positions of four channels), a, the weights,
// signed and broadcast, so the pair bound falls on the weights, where
// packing splits the few pairs over it (conv_a_signed, conv_fixup). Each
// K group is the GEMM tile's (tile_group_6x16) with the operands swapped.
[[gnu::always_inline]] inline __m256i maddubs_add_b_unsigned(__m256i acc, __m256i a, __m256i b) {
  return maddubs_add(acc, b, a);
}
struct conv_tile_6x16 {
  __m256i c0[6], c1[6];
  conv_tile_6x16() {
#pragma GCC unroll 6
    for (int i = 0; i < 6; ++i) c0[i] = c1[i] = _mm256_setzero_si256();
  }
  [[gnu::always_inline]] void step(const std::uint8_t* a, const std::uint8_t* b) {
    tile_group_6x16(c0, c1, a, b, maddubs_add_b_unsigned);
  }
};

void s8u8_conv__avx2_6x16c4(std::int64_t taps, const std::int64_t* offsets, std::int64_t groups, std::int64_t b_stride,
                            const void* av, const void* bv, std::int32_t* c, std::int64_t ldc, int m) {
  const auto* a = static_cast<const std::uint8_t*>(av);
  conv_tile_6x16 acc;
  for (std::int64_t t = 0; t < taps; ++t) {
    const auto* b = static_cast<const std::uint8_t*>(bv) + offsets[t];
    for (std::int64_t q = 0; q < groups; ++q, a += 6 * 4, b += b_stride) acc.step(a, b);
  }
  store_tile_6x16(acc.c0, acc.c1, c, ldc, m, 16, false);
}

void s8u8_conv_fixup__avx2_6x16c4(const q8_conv_fix* fixes, std::int64_t count, const std::int64_t* offsets,
                                  std::int64_t b_stride, const void* bv, std::int32_t* c, std::int64_t ldc, int m) {
  conv_tile_6x16 acc;
  for (std::int64_t f = 0; f < count; ++f)
    acc.step(reinterpret_cast<const std::uint8_t*>(fixes[f].a),
             static_cast<const std::uint8_t*>(bv) + offsets[fixes[f].tap] + fixes[f].group * b_stride);
  store_tile_6x16(acc.c0, acc.c1, c, ldc, m, 16, true);
}

void f32_minmax__avx2_x8(const float* x, std::int64_t n, float* lo, float* hi) {
  __m256 l = _mm256_set1_ps(*lo), h = _mm256_set1_ps(*hi);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    l = _mm256_min_ps(v, l);  // NaN in v: keeps l
    h = _mm256_max_ps(v, h);
  }
  alignas(32) float ls[8], hs[8];
  _mm256_store_ps(ls, l);
  _mm256_store_ps(hs, h);
  float lm = *lo, hm = *hi;
  for (int j = 0; j < 8; ++j) lm = ls[j] < lm ? ls[j] : lm, hm = hs[j] > hm ? hs[j] : hm;
  for (; i < n; ++i) lm = x[i] < lm ? x[i] : lm, hm = x[i] > hm ? x[i] : hm;
  *lo = lm, *hi = hm;
}

// Unit: scale is 1 (the QLinear binary ops round values they computed), and
// the division, exact then, is left out.
template <bool Unit>
static void quantize_u8(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y) {
  const __m256 s = _mm256_set1_ps(scale), z = _mm256_set1_ps(zero), top = _mm256_set1_ps(255.0f);
  const __m256 bottom = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 in = _mm256_loadu_ps(x + i);
    __m256 v = _mm256_round_ps(Unit ? in : _mm256_div_ps(in, s), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    v = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(v, z), bottom), top);
    const __m256i q = _mm256_cvtps_epi32(v);  // exact: already whole numbers in [0, 255]
    const __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    const __m128i b = _mm_packus_epi16(w, w);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), b);
  }
  for (; i < n; ++i) {
    float v = __builtin_nearbyintf(x[i] / scale) + zero;
    v = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
    y[i] = static_cast<std::uint8_t>(v);
  }
}

void f32_quantize_u8__avx2_x8(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y) {
  if (scale == 1.0f)
    quantize_u8<true>(x, n, scale, zero, y);
  else
    quantize_u8<false>(x, n, scale, zero, y);
}

// y = float(acc + add0 + add) * scale (+ bias), the product and the sum
// rounded one after the other: the empty asm keeps GCC from contracting them
// into an FMA (it does, -mfma and -std=c++20 notwithstanding, in the scalar tail).
template <bool PerColumn>
static void dequantize_row(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                           const float* scale, const float* bias, float* y) {
  const __m256i v0 = _mm256_set1_epi32(add0);
  const __m256 s1 = _mm256_set1_ps(*scale), b1 = _mm256_set1_ps(bias ? *bias : 0.0f);
  std::int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256i v = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j)), v0);
    if (add) v = _mm256_add_epi32(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(add + j)));
    __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(v), PerColumn ? _mm256_loadu_ps(scale + j) : s1);
    __asm__("" : "+x"(f));
    if (bias) f = _mm256_add_ps(f, PerColumn ? _mm256_loadu_ps(bias + j) : b1);
    _mm256_storeu_ps(y + j, f);
  }
  for (; j < n; ++j) {  // int32 terms wrap like the accumulation
    const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[j]) + static_cast<std::uint32_t>(add0) +
                                             static_cast<std::uint32_t>(add ? add[j] : 0));
    float f = static_cast<float>(v) * (PerColumn ? scale[j] : *scale);
    __asm__("" : "+x"(f));
    y[j] = bias ? f + (PerColumn ? bias[j] : *bias) : f;
  }
}

void q8_dequantize__avx2_x8(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                            const float* scale, const float* bias, std::int64_t step, float* y) {
  (step ? dequantize_row<true> : dequantize_row<false>)(acc, n, add, add0, scale, bias, y);
}

// QLinearMul / QLinearAdd (q8_qmul_fn, q8_qadd_fn), 8 outputs at a time, in
// MLAS's float order: every product and sum rounded on its own. GCC's
// intrinsics are vector operators it may contract into an FMA under -mfma;
// the empty asm between a product and the sum that follows stops it.
namespace {
inline __m256i widen8(const std::uint8_t* p, bool dense, bool is_signed) {
  const __m128i bytes = dense ? _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)) : _mm_set1_epi8(static_cast<char>(*p));
  return is_signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
}
inline int value_at(const std::uint8_t* p, std::int64_t i, bool is_signed) {
  return is_signed ? int{static_cast<std::int8_t>(p[i])} : int{p[i]};
}
// v holds the zero point: saturate, round half to even, narrow.
inline void store_rounded8(__m256 v, bool is_signed, std::uint8_t* y) {
  v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(is_signed ? -128.0f : 0.0f)), _mm256_set1_ps(is_signed ? 127.0f : 255.0f));
  const __m256i q = _mm256_cvtps_epi32(v);  // round to nearest even
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(y), is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w));
}
inline std::uint8_t rounded(float v, bool is_signed) {
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  v = __builtin_nearbyintf(v < lo ? lo : v > hi ? hi : v);
  return is_signed ? static_cast<std::uint8_t>(static_cast<std::int8_t>(v)) : static_cast<std::uint8_t>(v);
}
}  // namespace

void qlinear_mul__avx2_x8(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, int za, int zb,
                          float scale, float zc, bool is_signed, std::uint8_t* y) {
  const __m256i vza = _mm256_set1_epi32(za), vzb = _mm256_set1_epi32(zb);
  const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(zc);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i pa = _mm256_sub_epi32(widen8(a + (da ? i : 0), da, is_signed), vza);
    const __m256i pb = _mm256_sub_epi32(widen8(b + (db ? i : 0), db, is_signed), vzb);
    __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_mullo_epi32(pa, pb)), vs);  // exact product: |.| <= 255^2
    __asm__("" : "+x"(p));
    store_rounded8(_mm256_add_ps(p, vz), is_signed, y + i);
  }
  for (; i < n; ++i) {
    float p = static_cast<float>((value_at(a, da ? i : 0, is_signed) - za) * (value_at(b, db ? i : 0, is_signed) - zb)) * scale;
    __asm__("" : "+x"(p));
    y[i] = rounded(p + zc, is_signed);
  }
}

void qlinear_add__avx2_x8(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, float c0,
                          float ra, float rb, bool is_signed, std::uint8_t* y) {
  const __m256 vc = _mm256_set1_ps(c0), va = _mm256_set1_ps(ra), vb = _mm256_set1_ps(rb);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = vc;
    if (da) {
      __m256 t = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(a + i, true, is_signed)), va);
      __asm__("" : "+x"(t));
      v = _mm256_add_ps(v, t);
    }
    if (db) {
      __m256 t = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(b + i, true, is_signed)), vb);
      __asm__("" : "+x"(t));
      v = _mm256_add_ps(v, t);
    }
    store_rounded8(v, is_signed, y + i);
  }
  for (; i < n; ++i) {
    float v = c0;
    if (da) {
      float t = static_cast<float>(value_at(a, i, is_signed)) * ra;
      __asm__("" : "+x"(t));
      v += t;
    }
    if (db) {
      float t = static_cast<float>(value_at(b, i, is_signed)) * rb;
      __asm__("" : "+x"(t));
      v += t;
    }
    y[i] = rounded(v, is_signed);
  }
}

#include "kernels/cpu/isa/q8_requantize.ipp"
#include "kernels/cpu/isa/q8_rows.ipp"

extern const q8_gemm_kernel q8_kernel_c4;
// Its convolutions run s8u8_conv__avx2_6x16c4, the vpmaddubsw tile: the
// int16 kernel's layout would be twice the bytes for half the products.
extern const q8_gemm_kernel q8_kernel{"u8s8_gemm__avx2_6x16", 6, 16, 2, 2, 2, u8s8_gemm__avx2_6x16,
                                      f32_minmax__avx2_x8, f32_quantize_u8__avx2_x8, requantize_row, depthwise_plane, interleave4,
                                      nullptr, s8u8_conv__avx2_6x16c4, qlinear_mul__avx2_x8, qlinear_add__avx2_x8,
                                      q8_dequantize__avx2_x8, nullptr, nullptr, &q8_kernel_c4, true,
                                      s8u8_conv_fixup__avx2_6x16c4};
extern const q8_gemm_kernel q8_kernel_c4{"u8s8_gemm__avx2_6x16c4", 6, 16, 4, 1, 1, u8s8_gemm__avx2_6x16c4,
                                         f32_minmax__avx2_x8, f32_quantize_u8__avx2_x8, requantize_row, depthwise_plane,
                                         interleave4, nullptr, nullptr, qlinear_mul__avx2_x8, qlinear_add__avx2_x8,
                                         q8_dequantize__avx2_x8, nullptr, fixup_6x16};

}  // namespace onyx::kernels::cpu::isa::avx2
