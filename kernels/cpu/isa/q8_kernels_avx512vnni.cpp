// The int8 GEMM micro-kernel for AVX-512 VNNI: vpdpbusd multiplies four
// unsigned bytes of A by four signed bytes of B and adds the four products to
// an int32 lane, without the intermediate saturation of vpmaddubsw, so it is
// exact for every input. An 8 x 32 tile: 16 zmm accumulators, two B vectors,
// the A bytes broadcast from memory. Compiled with -mavx512vnni on top of the
// avx512 flags and chosen only when CPUID reports AVX512_VNNI.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>
#include <cstring>

#include "kernels/cpu/isa/q8.hpp"

// GCC 12's masked intrinsics pass an undefined vector as the masked-off
// source and then warn that it may be uninitialized (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

namespace onyx::kernels::cpu::isa::avx512vnni {

namespace {

// The 8 x 32 int32 tile of both kernels below: row i in c0[i] (columns 0-15)
// and c1[i] (16-31), in registers. Indexed by constants only: indexing the
// accumulators by a runtime row count made GCC keep them addressable and copy
// all 16 between registers on every step (32 moves per 16 vpdpbusd: 560
// GOP/s), so the tile leaves through spill() into memory and the callers'
// loops over m read that. With its operands in L1 this tile runs at 864-871
// GOP/s on the Zen 5 VM, where a loop of 24 independent register-only
// vpdpbusd peaks at ~870: the instruction's limit there, not ~1000.
struct tile_8x32 {
  static constexpr int mr = 8;
  __m512i c0[mr], c1[mr];

  [[gnu::always_inline]] tile_8x32() {
#pragma GCC unroll 8
    for (int i = 0; i < mr; ++i) c0[i] = c1[i] = _mm512_setzero_si512();
  }
  // One group of four K steps: the four bytes of each of A's 8 rows at a,
  // broadcast, against the 32 columns of B's group at b (128 bytes).
  [[gnu::always_inline]] void step(const std::uint8_t* a, const std::int8_t* b) {
    const __m512i b0 = _mm512_loadu_si512(b);
    const __m512i b1 = _mm512_loadu_si512(b + 64);
#pragma GCC unroll 8
    for (int i = 0; i < mr; ++i) {
      std::int32_t quad;
      std::memcpy(&quad, a + i * 4, sizeof quad);
      const __m512i ai = _mm512_set1_epi32(quad);
      c0[i] = _mm512_dpbusd_epi32(c0[i], ai, b0);
      c1[i] = _mm512_dpbusd_epi32(c1[i], ai, b1);
    }
  }
  // A K slice of `groups` groups: A's panel at a, B's at b (128 bytes a
  // group); with pf, the next B slice's two lines per group fetched as b's
  // are read.
  [[gnu::always_inline]] void run(std::int64_t groups, const std::uint8_t* a, const std::int8_t* b, const char* pf) {
    for (std::int64_t p = 0; p < groups; ++p, a += mr * 4, b += 128) {
      if (pf) {
        _mm_prefetch(pf + p * 128, _MM_HINT_T0);
        _mm_prefetch(pf + p * 128 + 64, _MM_HINT_T0);
      }
      step(a, b);
    }
  }
  [[gnu::always_inline]] void spill(std::int32_t (&tile)[mr][32]) const {
#pragma GCC unroll 8
    for (int i = 0; i < mr; ++i) {
      _mm512_store_si512(tile[i], c0[i]);
      _mm512_store_si512(tile[i] + 16, c1[i]);
    }
  }
};

// The masks of a tile's two 16-column halves for its first n columns.
[[gnu::always_inline]] inline void column_masks(int n, __mmask16& k0, __mmask16& k1) {
  k0 = n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
  k1 = n >= 32 ? __mmask16(0xFFFF) : n <= 16 ? __mmask16(0) : __mmask16((1u << (n - 16)) - 1);
}

}  // namespace

void u8s8_gemm__avx512vnni_8x32(std::int64_t groups, const void* av, const void* bv, std::int32_t* c,
                                std::int64_t ldc, int m, int n, bool accumulate, const void* prefetch) {
  constexpr int mr = tile_8x32::mr;
  tile_8x32 acc;
  acc.run(groups, static_cast<const std::uint8_t*>(av), static_cast<const std::int8_t*>(bv),
          static_cast<const char*>(prefetch));
  alignas(64) std::int32_t tile[mr][32];
  acc.spill(tile);
  __mmask16 k0, k1;
  column_masks(n, k0, k1);
  for (int i = 0; i < m; ++i) {
    std::int32_t* row = c + i * ldc;
    __m512i r0 = _mm512_load_si512(tile[i]), r1 = _mm512_load_si512(tile[i] + 16);
    if (accumulate) {
      r0 = _mm512_add_epi32(r0, _mm512_maskz_loadu_epi32(k0, row));
      r1 = _mm512_add_epi32(r1, _mm512_maskz_loadu_epi32(k1, row + 16));
    }
    _mm512_mask_storeu_epi32(row, k0, r0);
    _mm512_mask_storeu_epi32(row + 16, k1, r1);
  }
}

// The same tile leaving as floats (q8_float_tile): the sums, the earlier
// slices' sums, the row and column terms in int32 (wrapping), then the
// conversion, the scale and the bias explicitly rounded (never contracted
// into an FMA), as q8_dequantize__avx512_x16 does.
void u8s8_gemm_float__avx512vnni_8x32(std::int64_t groups, const void* av, const void* bv, const std::int32_t* c,
                                      std::int64_t ldc, int m, int n, bool accumulate, const void* prefetch,
                                      const q8_float_tile& out) {
  constexpr int mr = tile_8x32::mr;
  constexpr int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  tile_8x32 acc;
  acc.run(groups, static_cast<const std::uint8_t*>(av), static_cast<const std::int8_t*>(bv),
          static_cast<const char*>(prefetch));
  alignas(64) std::int32_t tile[mr][32];
  acc.spill(tile);
  __mmask16 k0, k1;
  column_masks(n, k0, k1);
  __m512i col0 = _mm512_setzero_si512(), col1 = _mm512_setzero_si512();
  if (out.col_add) {
    col0 = _mm512_maskz_loadu_epi32(k0, out.col_add);
    col1 = _mm512_maskz_loadu_epi32(k1, out.col_add + 16);
  }
  const __m512 s0 = _mm512_maskz_loadu_ps(k0, out.scale), s1 = _mm512_maskz_loadu_ps(k1, out.scale + 16);
  const __m512 b0 = out.bias ? _mm512_maskz_loadu_ps(k0, out.bias) : _mm512_setzero_ps();
  const __m512 b1 = out.bias ? _mm512_maskz_loadu_ps(k1, out.bias + 16) : _mm512_setzero_ps();
  for (int i = 0; i < m; ++i) {
    __m512i r0 = _mm512_add_epi32(_mm512_load_si512(tile[i]), col0);
    __m512i r1 = _mm512_add_epi32(_mm512_load_si512(tile[i] + 16), col1);
    if (accumulate) {
      r0 = _mm512_add_epi32(r0, _mm512_maskz_loadu_epi32(k0, c + i * ldc));
      r1 = _mm512_add_epi32(r1, _mm512_maskz_loadu_epi32(k1, c + i * ldc + 16));
    }
    if (out.row_add) {
      const __m512i ra = _mm512_set1_epi32(out.row_add[i]);
      r0 = _mm512_add_epi32(r0, ra);
      r1 = _mm512_add_epi32(r1, ra);
    }
    __m512 f0 = _mm512_mul_round_ps(_mm512_cvtepi32_ps(r0), s0, rn);
    __m512 f1 = _mm512_mul_round_ps(_mm512_cvtepi32_ps(r1), s1, rn);
    if (out.bias) {
      f0 = _mm512_add_round_ps(f0, b0, rn);
      f1 = _mm512_add_round_ps(f1, b1, rn);
    }
    float* y = out.y + i * out.ldy;
    _mm512_mask_storeu_ps(y, k0, f0);
    _mm512_mask_storeu_ps(y + 16, k1, f1);
  }
}

void u8s8_conv__avx512vnni_8x32(std::int64_t taps, const std::int64_t* offsets, std::int64_t groups,
                                std::int64_t b_stride, const void* av, const void* bv, std::int32_t* c,
                                std::int64_t ldc, int m) {
  constexpr int mr = tile_8x32::mr;
  const auto* a = static_cast<const std::uint8_t*>(av);
  tile_8x32 acc;
  for (std::int64_t t = 0; t < taps; ++t) {
    const auto* b = static_cast<const std::int8_t*>(bv) + offsets[t];
    for (std::int64_t q = 0; q < groups; ++q, a += mr * 4, b += b_stride) acc.step(a, b);
  }
  alignas(64) std::int32_t tile[mr][32];
  acc.spill(tile);
  for (int i = 0; i < m; ++i) {
    _mm512_storeu_si512(c + i * ldc, _mm512_load_si512(tile[i]));
    _mm512_storeu_si512(c + i * ldc + 16, _mm512_load_si512(tile[i] + 16));
  }
}

void f32_minmax__avx512_x16(const float* x, std::int64_t n, float* lo, float* hi) {
  __m512 l = _mm512_set1_ps(*lo), h = _mm512_set1_ps(*hi);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    l = _mm512_min_ps(v, l);  // NaN in v: keeps l
    h = _mm512_max_ps(v, h);
  }
  if (i < n) {
    const __mmask16 k = static_cast<__mmask16>((1u << (n - i)) - 1);
    l = _mm512_mask_min_ps(l, k, _mm512_maskz_loadu_ps(k, x + i), l);
    h = _mm512_mask_max_ps(h, k, _mm512_maskz_loadu_ps(k, x + i), h);
  }
  *lo = _mm512_reduce_min_ps(l);
  *hi = _mm512_reduce_max_ps(h);
}

// Unit: scale is 1 (the QLinear binary ops round values they computed), and
// the division, exact then, is left out: vdivps is most of the loop's time.
template <bool Unit>
static void quantize_u8(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y) {
  const __m512 s = _mm512_set1_ps(scale), z = _mm512_set1_ps(zero), top = _mm512_set1_ps(255.0f);
  const __m512 bottom = _mm512_setzero_ps();
  const auto bytes = [&](__m512 in) {
    __m512 v = _mm512_roundscale_ps(Unit ? in : _mm512_div_ps(in, s), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    v = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(v, z), bottom), top);
    return _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v));
  };
  // Narrowed in a register and stored whole: vpmovdb straight to memory
  // under a mask is microcoded on Zen 4/5 (half this loop's time).
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), bytes(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 k = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm_mask_storeu_epi8(y + i, k, bytes(_mm512_maskz_loadu_ps(k, x + i)));
  }
}

void f32_quantize_u8__avx512_x16(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y) {
  if (scale == 1.0f)
    quantize_u8<true>(x, n, scale, zero, y);
  else
    quantize_u8<false>(x, n, scale, zero, y);
}

// 8 rows x 32 bytes at a time: eight dwords per row, transposed 8 x 8 so
// that each store is one 4-byte group of all eight rows; the row sums by
// vpsadbw against zero.
void pack_a8(const std::uint8_t* a, std::int64_t lda, std::int64_t blocks, std::uint8_t flip, std::uint32_t* dst,
             std::int32_t* sums) {
  const __m256i f = _mm256_set1_epi8(static_cast<char>(flip)), zero = _mm256_setzero_si256();
  __m256i s[8];
  for (int i = 0; i < 8; ++i) s[i] = zero;
  for (std::int64_t b = 0; b < blocks; ++b, dst += 64) {
    __m256i r[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      r[i] = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i * lda + b * 32)), f);
      s[i] = _mm256_add_epi64(s[i], _mm256_sad_epu8(r[i], zero));
    }
    // t: pairs of rows interleaved by dword; u: quads of rows, dword d in the
    // low lane and d + 4 in the high one; the lane permutes join the halves.
    const __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    const __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    const __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    const __m256i u[8] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2),
                          _mm256_unpacklo_epi64(t1, t3), _mm256_unpackhi_epi64(t1, t3),
                          _mm256_unpacklo_epi64(t4, t6), _mm256_unpackhi_epi64(t4, t6),
                          _mm256_unpacklo_epi64(t5, t7), _mm256_unpackhi_epi64(t5, t7)};
#pragma GCC unroll 4
    for (int d = 0; d < 4; ++d) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + d * 8), _mm256_permute2x128_si256(u[d], u[d + 4], 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + (d + 4) * 8),
                          _mm256_permute2x128_si256(u[d], u[d + 4], 0x31));
    }
  }
  for (int i = 0; i < 8; ++i) {
    alignas(32) std::int64_t q[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(q), s[i]);
    sums[i] = static_cast<std::int32_t>(q[0] + q[1] + q[2] + q[3]);
  }
}

// QLinearMul / QLinearAdd, 16 outputs at a time. Each float operation is
// an explicitly rounded intrinsic (vmulps / vaddps with {rn-sae}), which the
// compiler cannot contract into an FMA: the results are MLAS's, bit for bit.
namespace {
constexpr int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

inline __m512i widen(const std::uint8_t* p, bool dense, __mmask16 k, bool is_signed) {
  const __m128i bytes = dense ? _mm_maskz_loadu_epi8(k, p) : _mm_set1_epi8(static_cast<char>(*p));
  return is_signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
}

// round half to even, saturate, narrow: v already holds the zero point
inline void store_rounded(__m512 v, bool is_signed, __mmask16 k, std::uint8_t* y) {
  v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(is_signed ? -128.0f : 0.0f)), _mm512_set1_ps(is_signed ? 127.0f : 255.0f));
  const __m128i q = _mm512_cvtepi32_epi8(_mm512_cvt_roundps_epi32(v, rn));
  if (k == 0xFFFF)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y), q);
  else
    _mm_mask_storeu_epi8(y, k, q);
}

inline __mmask16 tail_mask(std::int64_t left) {
  return left >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << left) - 1);
}
}  // namespace

void qlinear_mul__avx512_x16(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, int za,
                             int zb, float scale, float zc, bool is_signed, std::uint8_t* y) {
  const __m512i vza = _mm512_set1_epi32(za), vzb = _mm512_set1_epi32(zb);
  const __m512 vs = _mm512_set1_ps(scale), vz = _mm512_set1_ps(zc);
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = tail_mask(n - i);
    const __m512i pa = _mm512_sub_epi32(widen(a + (da ? i : 0), da, k, is_signed), vza);
    const __m512i pb = _mm512_sub_epi32(widen(b + (db ? i : 0), db, k, is_signed), vzb);
    const __m512 p = _mm512_cvtepi32_ps(_mm512_mullo_epi32(pa, pb));  // exact: |product| <= 255^2
    store_rounded(_mm512_add_round_ps(_mm512_mul_round_ps(p, vs, rn), vz, rn), is_signed, k, y + i);
  }
}

void qlinear_add__avx512_x16(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, float c0,
                             float ra, float rb, bool is_signed, std::uint8_t* y) {
  const __m512 vc = _mm512_set1_ps(c0), va = _mm512_set1_ps(ra), vb = _mm512_set1_ps(rb);
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = tail_mask(n - i);
    __m512 v = vc;
    if (da) v = _mm512_add_round_ps(v, _mm512_mul_round_ps(_mm512_cvtepi32_ps(widen(a + i, true, k, is_signed)), va, rn), rn);
    if (db) v = _mm512_add_round_ps(v, _mm512_mul_round_ps(_mm512_cvtepi32_ps(widen(b + i, true, k, is_signed)), vb, rn), rn);
    store_rounded(v, is_signed, k, y + i);
  }
}

#include "kernels/cpu/isa/q8_requantize.ipp"
#include "kernels/cpu/isa/q8_rows.ipp"

// interleave4 32 columns at a time for B's signed values (the packing of a
// B panel, 32 wide): bytes of the four rows interleaved by two rounds of
// unpacks (within 128-bit lanes, then the lanes put in order), and each
// group's four values summed by vpdpbusd of ones against them. The loop of
// q8_rows.ipp takes the tail and unsigned values (A's panels are 8 wide).
static void interleave4_x32(const std::uint8_t* r0, const std::uint8_t* r1, const std::uint8_t* r2,
                            const std::uint8_t* r3, std::int64_t n, std::uint8_t flip, bool as_unsigned,
                            std::uint32_t* dst, std::int32_t* sums) {
  const __m256i f = _mm256_set1_epi8(static_cast<char>(flip)), ones = _mm256_set1_epi8(1), zero = _mm256_setzero_si256();
  const auto row = [&](const std::uint8_t* r, std::int64_t i) {
    return _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + i)), f);
  };
  std::int64_t i = 0;
  for (; !as_unsigned && i + 32 <= n; i += 32) {
    const __m256i a = row(r0, i), b = row(r1, i), c = row(r2, i), d = row(r3, i);
    const __m256i ab_lo = _mm256_unpacklo_epi8(a, b), ab_hi = _mm256_unpackhi_epi8(a, b);
    const __m256i cd_lo = _mm256_unpacklo_epi8(c, d), cd_hi = _mm256_unpackhi_epi8(c, d);
    // q0: groups 0-3 | 16-19, q1: 4-7 | 20-23, q2: 8-11 | 24-27, q3: 12-15 | 28-31
    const __m256i q0 = _mm256_unpacklo_epi16(ab_lo, cd_lo), q1 = _mm256_unpackhi_epi16(ab_lo, cd_lo);
    const __m256i q2 = _mm256_unpacklo_epi16(ab_hi, cd_hi), q3 = _mm256_unpackhi_epi16(ab_hi, cd_hi);
    const __m256i o[4] = {_mm256_permute2x128_si256(q0, q1, 0x20), _mm256_permute2x128_si256(q2, q3, 0x20),
                          _mm256_permute2x128_si256(q0, q1, 0x31), _mm256_permute2x128_si256(q2, q3, 0x31)};
    for (int v = 0; v < 4; ++v) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i + v * 8), o[v]);
      const __m256i group_sum = _mm256_dpbusd_epi32(zero, ones, o[v]);
      __m256i* sv = reinterpret_cast<__m256i*>(sums + i + v * 8);
      _mm256_storeu_si256(sv, _mm256_add_epi32(_mm256_loadu_si256(sv), group_sum));
    }
  }
  if (i < n) interleave4(r0 + i, r1 + i, r2 + i, r3 + i, n - i, flip, as_unsigned, dst + i, sums + i);
}

// Explicitly rounded vmulps and vaddps, so that the compiler cannot
// contract them into one FMA (the chain rounds the product first).
namespace {
template <bool PerColumn>
void dequantize_row(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                    const float* scale, const float* bias, float* y) {
  constexpr int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  const __m512i v0 = _mm512_set1_epi32(add0);
  const __m512 s1 = _mm512_set1_ps(*scale), b1 = _mm512_set1_ps(bias ? *bias : 0.0f);
  for (std::int64_t j = 0; j < n; j += 16) {
    const __mmask16 k = n - j >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << (n - j)) - 1u);
    __m512i v = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, acc + j), v0);
    if (add) v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(k, add + j));
    __m512 f = _mm512_mul_round_ps(_mm512_cvtepi32_ps(v), PerColumn ? _mm512_maskz_loadu_ps(k, scale + j) : s1, rn);
    if (bias) f = _mm512_add_round_ps(f, PerColumn ? _mm512_maskz_loadu_ps(k, bias + j) : b1, rn);
    _mm512_mask_storeu_ps(y + j, k, f);
  }
}
}  // namespace

void q8_dequantize__avx512_x16(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                               const float* scale, const float* bias, std::int64_t step, float* y) {
  (step ? dequantize_row<true> : dequantize_row<false>)(acc, n, add, add0, scale, bias, y);
}

extern const q8_gemm_kernel q8_kernel{"u8s8_gemm__avx512vnni_8x32", 8, 32, 4, 1, 1, u8s8_gemm__avx512vnni_8x32,
                                      f32_minmax__avx512_x16, f32_quantize_u8__avx512_x16, requantize_row, depthwise_plane, interleave4_x32, pack_a8,
                                      u8s8_conv__avx512vnni_8x32, qlinear_mul__avx512_x16, qlinear_add__avx512_x16,
                                      q8_dequantize__avx512_x16, u8s8_gemm_float__avx512vnni_8x32};

}  // namespace onyx::kernels::cpu::isa::avx512vnni
