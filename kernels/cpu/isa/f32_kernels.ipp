// kernels/cpu/isa/f32_kernels.ipp: the f32 micro-kernels, written once.
//
// Included only by f32_kernels_<isa>.cpp, *inside* that TU's namespace
// onyx::kernels::cpu::isa::<isa>, after it defines
//   using vec = float | xsimd::batch<float, Arch>;
// Everything here sits in an anonymous namespace within that per-ISA namespace,
// so no symbol compiled with that ISA's flags can be merged into baseline code.
// The TU then names the instances (f32_gemm__avx512_12x32, ...) and builds its
// `kernel_table`.
//
// The includer provides <xsimd/xsimd.hpp> (even the scalar TU: names in the
// discarded `if constexpr` branches must still resolve), <cstdint>, <cstring>,
// <limits>, <type_traits> and isa.hpp (and <utility> on aarch64).
//
// The few NEON intrinsics (aarch64 only, behind `uses_neon`) sit where xsimd
// 8.1 falls short: its float division on neon64 is a reciprocal estimate with
// two Newton steps (not IEEE), it has no multiply by lane for the GEMM, and
// no partial store.

namespace {

constexpr bool is_scalar = std::is_same_v<vec, float>;
template <class V>
constexpr int lanes_of = static_cast<int>(V::size);
template <>
constexpr int lanes_of<float> = 1;
constexpr int lanes = lanes_of<vec>;
#if defined(__aarch64__)
constexpr bool uses_neon = !is_scalar;
#else
constexpr bool uses_neon = false;
#endif

// --- the few operations that differ between float and xsimd batches --------

template <class V = vec>
V load_vec(const float* p) {
  if constexpr (is_scalar) return *p;
  else return V::load_unaligned(p);
}
template <class V>
void store_vec(float* p, V v) {
  if constexpr (is_scalar) *p = v;
  else v.store_unaligned(p);
}
// a*b + c, fused where the ISA has FMA. xsimd 8.1's avx512 fma is the
// expression a * b + c, which leaves GCC to pick the product it fuses
// where c is a product too: the intrinsic says which.
template <class V>
V fmadd(V a, V b, V c) {
  if constexpr (is_scalar) {
    return a * b + c;
  } else {
#if defined(__AVX512F__)
    if constexpr (V::size == 16) return _mm512_fmadd_ps(a, b, c);
#endif
    return xsimd::fma(a, b, c);
  }
}
// The helpers below take a float too (a vector loop's scalar tail).
template <class V>
V divide(V a, V b) {  // a / b, correctly rounded
#if defined(__aarch64__)
  if constexpr (uses_neon && !std::is_same_v<V, float>) return vdivq_f32(a, b);
#endif
  return a / b;
}
// v as it is, hidden from the optimizer: GCC contracts a product and a sum
// into an FMA across statements in C++, so a product followed by a sum that
// must round twice (as two steps do) goes through this in between.
template <class V>
V rounded(V v) {
  if constexpr (std::is_same_v<V, float>) {
#if defined(__x86_64__) || defined(__i386__)
    asm("" : "+x"(v));
#elif defined(__aarch64__)
    asm("" : "+w"(v));
#endif
    return v;
  } else {
    auto r = static_cast<typename V::register_type>(v);
#if defined(__x86_64__) || defined(__i386__)
    asm("" : "+x"(r));
#elif defined(__aarch64__)
    asm("" : "+w"(r));
#endif
    return V(r);
  }
}
template <class V, class M>
V where(M mask, V a, V b) {
  if constexpr (std::is_same_v<V, float>) return mask ? a : b;
  else return xsimd::select(mask, a, b);
}
// Clamps to [lo, hi]; NaN becomes lo (callers that care restore it).
template <class V>
V clamp_to(V x, V lo, V hi) {
  x = where(x > lo, x, lo);
  return where(x < hi, x, hi);
}
// Integer-valued floats k with |k| < 2^22 are handled without conversion
// instructions: adding 1.5 * 2^23 rounds to an integer and leaves k in the low
// mantissa bits. (GCC 12 warns, unsuppressibly, about the AVX-512 conversion
// and immediate-shift intrinsics: bug 105593; these tricks avoid them and
// cost no more.)
constexpr float round_magic = 12582912.0f;  // 1.5 * 2^23

// round-to-nearest-even of x, for |x| < 2^22.
template <class V>
V round_small(V x) {
  return (x + V(round_magic)) - V(round_magic);
}
// floor(k / 2) for integer-valued k: k/2 - 1/4 rounds to it.
// x != x is false for NaN with xsimd's ordered AVX compare, so ask directly.
template <class V>
auto is_nan(V x) {
  if constexpr (std::is_same_v<V, float>) return x != x;
  else return xsimd::isnan(x);
}
// floor(k / 2) for integer-valued k: k/2 - 1/4 rounds to it.
template <class V>
V half_floor(V k) {
  return round_small(fmadd(k, V(0.5f), V(-0.25f)));
}
// 2^k for integer-valued k in [-126, 127]: (k + 127) moved into the exponent
// field (the multiply by 2^23 is the shift left by 23).
template <class V>
V pow2i(V k) {
  if constexpr (is_scalar) {
    const std::int32_t bits = (static_cast<std::int32_t>(k) + 127) << 23;
    float r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
  } else {
    using ints = xsimd::batch<std::int32_t, typename V::arch_type>;
    const ints low = xsimd::bitwise_cast<ints>(k + V(round_magic));  // 0x4B400000 + k
    return xsimd::bitwise_cast<V>((low - ints(0x4B400000 - 127)) * ints(1 << 23));
  }
}
template <class V>
float reduce_add(V v) {
  if constexpr (is_scalar) return v;
  else return xsimd::hadd(v);
}
template <class V>
float reduce_max(V v) {
  if constexpr (is_scalar) {
    return v;
#if defined(__AVX512F__)
  } else if constexpr (lanes_of<V> == 16) {
    return _mm512_reduce_max_ps(v);  // a shuffle tree, where the loop below went lane by lane
#endif
  } else {
    alignas(64) float t[lanes];
    v.store_aligned(t);
    float m = t[0];
    for (int i = 1; i < lanes; ++i) m = t[i] > m ? t[i] : m;
    return m;
  }
}

constexpr float inf = std::numeric_limits<float>::infinity();

// --- GEMM micro-kernel -------------------------------------------------------
//
// MR rows x NV vectors of C live in registers (AVX-512 12x32: 24 accumulators,
// 2 B vectors and 1 broadcast A of the 32 zmm registers). Each step over k
// loads one NR-wide row of the B panel, broadcasts MR values of the A panel
// and issues MR*NV independent FMAs, enough to cover FMA latency on 2 ports.

// Inlined into the tile, so the accumulators go from registers to C (as a
// call, they took a round trip through the stack).
template <int MR, int NV>
[[gnu::always_inline]] inline void write_tile(const vec (&acc)[MR][NV], float* c, std::int64_t ldc,
                const isa::f32_gemm_params& p) {
  // The parameters in locals: C's stores could alias `p` as far as the
  // compiler knows, and would make it reload and retest them per vector.
  const float* const row_bias = p.row_bias;
  const float* const col_bias = p.col_bias;
  const bool scale = p.alpha != 1.0f, accumulate = p.beta != 0.0f, clamp = p.clamp;
  const vec alpha(p.alpha), beta(p.beta), lo(p.min), hi(p.max);
  if (!scale && !row_bias && !col_bias && !clamp) {  // C = acc, or C += acc
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        float* cij = c + i * ldc + j * lanes;
        store_vec(cij, accumulate ? fmadd(beta, load_vec(cij), acc[i][j]) : acc[i][j]);
      }
    return;
  }
  // A missing scale or bias is applied as its identity (x * 1 and x + -0
  // are x, bit for bit, -0 and NaN included), so of the five choices only
  // the two that change the code's shape are branches, taken once per tile
  // (tested per vector, they were a fifth of a short-K tile's time).
  struct negative_zeros {
    float v[NV * lanes];
    constexpr negative_zeros() : v{} {
      for (float& x : v) x = -0.0f;
    }
  };
  alignas(64) static constexpr negative_zeros no_bias{};
  const auto write = [&](auto accumulate_c, auto clamp_c) {
    const float* const cb = col_bias ? col_bias : no_bias.v;
    vec cbv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) cbv[j] = load_vec(cb + j * lanes);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const vec rb(row_bias ? row_bias[i] : -0.0f);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        float* cij = c + i * ldc + j * lanes;
        vec r = acc[i][j] * alpha;
        if constexpr (decltype(accumulate_c)::value) r = fmadd(beta, load_vec(cij), r);
        r = (r + rb) + cbv[j];
        if constexpr (decltype(clamp_c)::value) r = clamp_to(r, lo, hi);
        store_vec(cij, r);
      }
    }
  };
  using yes = std::true_type;
  using no = std::false_type;
  if (accumulate)
    clamp ? write(yes{}, yes{}) : write(yes{}, no{});
  else
    clamp ? write(no{}, yes{}) : write(no{}, no{});
}

// NEON: the MR values of A of one step are loaded as MR/4 vectors and each
// FMA takes its A operand from a lane (fmla v.4s, v.4s, v.s[l]), so a step
// of the 8x12 tile is 5 loads and 24 FMAs in 29 of the 32 registers, where a
// broadcast per row of A would need 8 more loads.
#if defined(__aarch64__)
// c[I][j] += b[j] * lane I % 4 of a[I / 4], for each row I of the pack.
template <int NV, int... I>
inline void fma_rows_by_lane(float32x4_t (&c)[sizeof...(I)][NV], const float32x4_t (&b)[NV],
                             const float32x4_t* a, std::integer_sequence<int, I...>) {
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) ((c[I][j] = vfmaq_laneq_f32(c[I][j], b[j], a[I / 4], I % 4)), ...);
}
#endif

template <int MR, int NV, int AS = MR>
void accumulate_by_lane(std::int64_t kc, const float* a, const float* b, vec (&acc)[MR][NV]) {
#if defined(__aarch64__)
  static_assert(MR % 4 == 0 && lanes == 4);
  float32x4_t c[MR][NV];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV; ++j) c[i][j] = vdupq_n_f32(0.0f);
  for (std::int64_t k = 0; k < kc; ++k, a += AS, b += NV * 4) {
    float32x4_t bk[NV], ak[MR / 4];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bk[j] = vld1q_f32(b + j * 4);
#pragma GCC unroll 4
    for (int q = 0; q < MR / 4; ++q) ak[q] = vld1q_f32(a + q * 4);
    fma_rows_by_lane(c, bk, ak, std::make_integer_sequence<int, MR>{});
  }
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = c[i][j];
#else
  (void)kc, (void)a, (void)b, (void)acc;
#endif
}

void gemm_pack(const float* src, std::int64_t ld, bool w_contiguous, std::int64_t wn, std::int64_t kn, int width,
               float* dst, std::int64_t panel_stride);

// AVX2's 16-column tiles (6, 4 or 2 rows; B packed, or packed by the tile
// as it reads the raw rows) run their k loop in assembly, eight steps per
// iteration: for 6 rows, 20 instructions a step (2 loads of B, 6 broadcasts
// of A, 12 FMAs) and 6 an iteration (3 prefetches of A's next lines, 2
// pointers, the count). Four steps an iteration (2 prefetches, 5 in all) ran
// at 0.983-0.987 of eight in a scratch loop of K = 768, A from L2, paired
// 100 times (Zen 3): the loop is bound by what it issues. The same
// loop written with xsimd compiled to 26 a step (GCC neither unrolls it nor
// drops the per-step prefetch test), and unrolled in C++ it spilled registers
// into moves. The FMA pipes are not what limits it: on a VM whose core is
// shared (SMT) it is the instructions each thread gets to issue. Zen 3, 1
// thread, `sgemm_packed` alternated call by call with the C++ loop: the same
// rate when the core had it to itself (~78 GFLOP/s), 1.35-1.55x when it was
// shared (the C++ loop fell to ~45, this one to ~67). The narrow 8-column
// tile on packed B (Winograd's blocks of few tiles, a last panel) runs the
// same loop with one B vector: 13 instructions a step for 6 FMAs. Paired with
// its C++ loop through a one-Conv session (Winograd), the C++ loop took 1.36x
// as long on a 512-channel 7x7 map, 1.28x on 64 -> 96 channels at 28x28, and
// the same on 256 channels at 14x14 (whole 16-tile blocks, no narrow tile).

// k steps per iteration of the assembly loops (ONYX_STEPS below).
inline constexpr int avx2_loop_steps = 8;
// What avx2_tile_full's epilogue reads (byte offsets as its assembly uses them).
struct avx2_epilogue {
  std::int64_t ldc_bytes;   // 0
  const float* row_bias;    // 8, or null
  const float* col_bias;    // 16, or null
  float lo, hi;             // 24, 28
  std::int64_t flags;       // 32: 1 adds C, 2 clamps
  std::int64_t rest;        // 40: kc % avx2_loop_steps
};
#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && !defined(__AVX512F__)
// The narrow tile (NV = 1) has the loop on packed B only.
template <int MR, int NV, int AS, bool PackB>
constexpr bool avx2_asm_tile =
    lanes == 8 && (MR == 6 || MR == 4 || MR == 2) && (NV == 2 || (NV == 1 && !PackB)) && AS == 6;

// ymm0-11: the accumulators (row i in ymm 2i, 2i + 1); ymm12-13: B's row;
// ymm14-15: A broadcasts. A's panel is 6 floats a step (AS) whatever the rows.
#define ONYX_ROW(I, R, CA, CB) \
  "vbroadcastss \\u*24+" #I "*4(%[a]), %%" R "\n\t" \
  "vfmadd231ps %%ymm12, %%" R ", %%" CA "\n\t" \
  "vfmadd231ps %%ymm13, %%" R ", %%" CB "\n\t"
#define ONYX_ROWS_2 ONYX_ROW(0, "ymm14", "ymm0", "ymm1") ONYX_ROW(1, "ymm15", "ymm2", "ymm3")
#define ONYX_ROWS_4 ONYX_ROWS_2 ONYX_ROW(2, "ymm14", "ymm4", "ymm5") ONYX_ROW(3, "ymm15", "ymm6", "ymm7")
#define ONYX_ROWS_6 ONYX_ROWS_4 ONYX_ROW(4, "ymm14", "ymm8", "ymm9") ONYX_ROW(5, "ymm15", "ymm10", "ymm11")
// The narrow tile (NV = 1, 8 columns): row i in ymm i, B's row in ymm12.
#define ONYX_ROW1(I, R, C) \
  "vbroadcastss \\u*24+" #I "*4(%[a]), %%" R "\n\t" \
  "vfmadd231ps %%ymm12, %%" R ", %%" C "\n\t"
#define ONYX_ROWS1_2 ONYX_ROW1(0, "ymm14", "ymm0") ONYX_ROW1(1, "ymm15", "ymm1")
#define ONYX_ROWS1_4 ONYX_ROWS1_2 ONYX_ROW1(2, "ymm14", "ymm2") ONYX_ROW1(3, "ymm15", "ymm3")
#define ONYX_ROWS1_6 ONYX_ROWS1_4 ONYX_ROW1(4, "ymm14", "ymm4") ONYX_ROW1(5, "ymm15", "ymm5")
// B's row u of the group from the packed panel.
#define ONYX_B_PACKED \
  "vmovups \\u*64(%[b]), %%ymm12\n\t" \
  "vmovups \\u*64+32(%[b]), %%ymm13\n\t"
// B's row from the raw operand (ldb bytes apart), stored to the packed panel;
// the same row of the next panel (the line its last float is in, 124 bytes
// on) fetched for the tile that will pack it. Rows far apart are as many
// streams as the panel has steps, which the hardware prefetchers do not
// follow: fetching 16 rows ahead in the panel being packed left the packing
// tile waiting on memory (r50_56_3x3_64_64, 576 rows 12.5 KB apart, ran at
// 0.60 of oneDNN's speed; 0.80 with the next panel fetched, which the other
// tiles of the panel's column give the time to arrive).
#define ONYX_B_RAW \
  "vmovups (%[b]), %%ymm12\n\t" \
  "vmovups 32(%[b]), %%ymm13\n\t" \
  "vmovups %%ymm12, \\u*64(%[bo])\n\t" \
  "vmovups %%ymm13, \\u*64+32(%[bo])\n\t" \
  "prefetcht0 124(%[b])\n\t" \
  "add %[ldb], %[b]\n\t"
// The steps of one iteration of the loops below (avx2_loop_steps of them;
// each loop's pointer increments are that many steps' bytes: A 24 a step, B
// 64, or 32 for the narrow tile).
#define ONYX_STEPS ".irp u,0,1,2,3,4,5,6,7\n\t"
#define ONYX_PREFETCH_A \
  "prefetcht0 3072(%[a])\n\t" \
  "prefetcht0 3136(%[a])\n\t" \
  "prefetcht0 3200(%[a])\n\t"
#define ONYX_PREFETCH_NEXT_B \
  "prefetcht0 (%[nb])\n\t" \
  "prefetcht0 64(%[nb])\n\t" \
  "prefetcht0 128(%[nb])\n\t" \
  "prefetcht0 192(%[nb])\n\t" \
  "prefetcht0 256(%[nb])\n\t" \
  "prefetcht0 320(%[nb])\n\t" \
  "prefetcht0 384(%[nb])\n\t" \
  "prefetcht0 448(%[nb])\n\t" \
  "add $512, %[nb]\n\t"
#define ONYX_ZERO \
  "vxorps %%xmm0, %%xmm0, %%xmm0\n\t" "vxorps %%xmm1, %%xmm1, %%xmm1\n\t" "vxorps %%xmm2, %%xmm2, %%xmm2\n\t" \
  "vxorps %%xmm3, %%xmm3, %%xmm3\n\t" "vxorps %%xmm4, %%xmm4, %%xmm4\n\t" "vxorps %%xmm5, %%xmm5, %%xmm5\n\t" \
  "vxorps %%xmm6, %%xmm6, %%xmm6\n\t" "vxorps %%xmm7, %%xmm7, %%xmm7\n\t" "vxorps %%xmm8, %%xmm8, %%xmm8\n\t" \
  "vxorps %%xmm9, %%xmm9, %%xmm9\n\t" "vxorps %%xmm10, %%xmm10, %%xmm10\n\t" "vxorps %%xmm11, %%xmm11, %%xmm11\n\t"
#define ONYX_STORE \
  "vmovups %%ymm0, (%[c])\n\t" "vmovups %%ymm1, 32(%[c])\n\t" "vmovups %%ymm2, 64(%[c])\n\t" \
  "vmovups %%ymm3, 96(%[c])\n\t" "vmovups %%ymm4, 128(%[c])\n\t" "vmovups %%ymm5, 160(%[c])\n\t" \
  "vmovups %%ymm6, 192(%[c])\n\t" "vmovups %%ymm7, 224(%[c])\n\t" "vmovups %%ymm8, 256(%[c])\n\t" \
  "vmovups %%ymm9, 288(%[c])\n\t" "vmovups %%ymm10, 320(%[c])\n\t" "vmovups %%ymm11, 352(%[c])\n\t"
#define ONYX_CLOBBERS \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", \
  "xmm13", "xmm14", "xmm15", "memory", "cc"
// The loop over packed B, with the next panel fetched (NB) or not.
#define ONYX_PACKED_LOOP(ROWS, NB) \
  asm volatile(ONYX_ZERO "1:\n\t" ONYX_PREFETCH_A NB ONYX_STEPS ONYX_B_PACKED ROWS ".endr\n\t" \
               "add $192, %[a]\n\t" "add $512, %[b]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" ONYX_STORE \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [nb] "+r"(next_b) : [c] "r"(c) : ONYX_CLOBBERS)
// The narrow tile's loop over packed B (8 floats a step; the next panel's
// four lines an iteration of eight steps).
#define ONYX_PACKED_LOOP1(ROWS, NB) \
  asm volatile(ONYX_ZERO "1:\n\t" ONYX_PREFETCH_A NB ONYX_STEPS "vmovups \\u*32(%[b]), %%ymm12\n\t" ROWS \
               ".endr\n\t" "add $192, %[a]\n\t" "add $256, %[b]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" ONYX_STORE \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [nb] "+r"(next_b) : [c] "r"(c) : ONYX_CLOBBERS)
#define ONYX_PREFETCH_NEXT_B1 \
  "prefetcht0 (%[nb])\n\t" \
  "prefetcht0 64(%[nb])\n\t" \
  "prefetcht0 128(%[nb])\n\t" \
  "prefetcht0 192(%[nb])\n\t" \
  "add $256, %[nb]\n\t"
// The loop over raw B, packing it to b_out.
#define ONYX_PACKING_LOOP(ROWS) \
  asm volatile(ONYX_ZERO "1:\n\t" ONYX_PREFETCH_A ONYX_STEPS ONYX_B_RAW ROWS ".endr\n\t" \
               "add $192, %[a]\n\t" "add $512, %[bo]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" ONYX_STORE \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [bo] "+r"(b_out) \
               : [c] "r"(c), [ldb] "r"(ldb_bytes) : ONYX_CLOBBERS)

// A whole tile with its epilogue in the same assembly block, the sums never
// leaving their registers: the kc % 8 last steps one at a time, then
// C = acc (+ C) (+ row bias) (+ column bias), clamped, in the order and with
// the roundings of write_tile (alpha 1, beta 0 or 1: acc + C is one rounding
// either way; vmaxps / vminps return their second source on NaN, as
// clamp_to's selects do). On 64-deep products (1x1 convolutions over 64
// channels) the stack round trip and write_tile's branches had cost about a
// sixth of the tile.
// Row I of the tile in CA (and CB): one macro per epilogue step, applied to
// every row by ONYX_EACH<NV>_<MR>. %[a] walks C's rows, %[n] holds ldc bytes,
// %[b] the bias being added.
#define ONYX_EP_ACC(I, CA, CB) \
  "vaddps (%[a]), %%" CA ", %%" CA "\n\t" "vaddps 32(%[a]), %%" CB ", %%" CB "\n\t" "add %[n], %[a]\n\t"
#define ONYX_EP_RB(I, CA, CB) \
  "vbroadcastss " #I "*4(%[b]), %%ymm14\n\t" "vaddps %%ymm14, %%" CA ", %%" CA "\n\t" \
  "vaddps %%ymm14, %%" CB ", %%" CB "\n\t"
#define ONYX_EP_CB(I, CA, CB) "vaddps %%ymm12, %%" CA ", %%" CA "\n\t" "vaddps %%ymm13, %%" CB ", %%" CB "\n\t"
#define ONYX_EP_CLAMP(I, CA, CB) \
  "vmaxps %%ymm14, %%" CA ", %%" CA "\n\t" "vminps %%ymm15, %%" CA ", %%" CA "\n\t" \
  "vmaxps %%ymm14, %%" CB ", %%" CB "\n\t" "vminps %%ymm15, %%" CB ", %%" CB "\n\t"
#define ONYX_EP_ST(I, CA, CB) "vmovups %%" CA ", (%[a])\n\t" "vmovups %%" CB ", 32(%[a])\n\t" "add %[n], %[a]\n\t"
#define ONYX_EP_ACC1(I, C) "vaddps (%[a]), %%" C ", %%" C "\n\t" "add %[n], %[a]\n\t"
#define ONYX_EP_RB1(I, C) "vbroadcastss " #I "*4(%[b]), %%ymm14\n\t" "vaddps %%ymm14, %%" C ", %%" C "\n\t"
#define ONYX_EP_CB1(I, C) "vaddps %%ymm12, %%" C ", %%" C "\n\t"
#define ONYX_EP_CLAMP1(I, C) "vmaxps %%ymm14, %%" C ", %%" C "\n\t" "vminps %%ymm15, %%" C ", %%" C "\n\t"
#define ONYX_EP_ST1(I, C) "vmovups %%" C ", (%[a])\n\t" "add %[n], %[a]\n\t"
#define ONYX_EACH2_2(M) M(0, "ymm0", "ymm1") M(1, "ymm2", "ymm3")
#define ONYX_EACH2_4(M) ONYX_EACH2_2(M) M(2, "ymm4", "ymm5") M(3, "ymm6", "ymm7")
#define ONYX_EACH2_6(M) ONYX_EACH2_4(M) M(4, "ymm8", "ymm9") M(5, "ymm10", "ymm11")
#define ONYX_EACH1_2(M) M(0, "ymm0") M(1, "ymm1")
#define ONYX_EACH1_4(M) ONYX_EACH1_2(M) M(2, "ymm2") M(3, "ymm3")
#define ONYX_EACH1_6(M) ONYX_EACH1_4(M) M(4, "ymm4") M(5, "ymm5")
// The epilogue (EACH: ONYX_EACH<NV>_<MR>; SUF: "" for 16 columns, 1 for 8).
#define ONYX_EPILOGUE(EACH, SUF, LOAD_CB) \
  "mov (%[ep]), %[n]\n\t" \
  "testb $1, 32(%[ep])\n\t" "jz 3f\n\t" "mov %[c], %[a]\n\t" EACH(ONYX_EP_ACC##SUF) "3:\n\t" \
  "mov 8(%[ep]), %[b]\n\t" "test %[b], %[b]\n\t" "jz 4f\n\t" EACH(ONYX_EP_RB##SUF) "4:\n\t" \
  "mov 16(%[ep]), %[b]\n\t" "test %[b], %[b]\n\t" "jz 5f\n\t" LOAD_CB EACH(ONYX_EP_CB##SUF) "5:\n\t" \
  "testb $2, 32(%[ep])\n\t" "jz 6f\n\t" "vbroadcastss 24(%[ep]), %%ymm14\n\t" "vbroadcastss 28(%[ep]), %%ymm15\n\t" \
  EACH(ONYX_EP_CLAMP##SUF) "6:\n\t" \
  "mov %[c], %[a]\n\t" EACH(ONYX_EP_ST##SUF)
#define ONYX_LOAD_CB "vmovups (%[b]), %%ymm12\n\t" "vmovups 32(%[b]), %%ymm13\n\t"
#define ONYX_LOAD_CB1 "vmovups (%[b]), %%ymm12\n\t"
// The kc % 8 last steps, one at a time (STEP: one step's loads and FMAs at
// u = 0, then the pointer increments).
#define ONYX_REST(STEP) \
  "mov 40(%[ep]), %[n]\n\t" "test %[n], %[n]\n\t" "jz 7f\n\t" \
  "2:\n\t" ".irp u,0\n\t" STEP "dec %[n]\n\t" "jnz 2b\n\t" "7:\n\t"
#define ONYX_FULL_PACKED(ROWS, NB, EACH) \
  asm volatile(ONYX_ZERO "test %[n], %[n]\n\t" "jz 9f\n\t" "1:\n\t" ONYX_PREFETCH_A NB ONYX_STEPS ONYX_B_PACKED ROWS ".endr\n\t" \
               "add $192, %[a]\n\t" "add $512, %[b]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" "9:\n\t" \
               ONYX_REST(ONYX_B_PACKED ROWS ".endr\n\t" "add $24, %[a]\n\t" "add $64, %[b]\n\t") \
               ONYX_EPILOGUE(EACH, , ONYX_LOAD_CB) \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [nb] "+r"(next_b) : [c] "r"(c), [ep] "r"(&ep) \
               : ONYX_CLOBBERS)
#define ONYX_FULL_PACKED1(ROWS, NB, EACH) \
  asm volatile(ONYX_ZERO "test %[n], %[n]\n\t" "jz 9f\n\t" "1:\n\t" ONYX_PREFETCH_A NB ONYX_STEPS "vmovups \\u*32(%[b]), %%ymm12\n\t" ROWS \
               ".endr\n\t" "add $192, %[a]\n\t" "add $256, %[b]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" "9:\n\t" \
               ONYX_REST("vmovups (%[b]), %%ymm12\n\t" ROWS ".endr\n\t" "add $24, %[a]\n\t" "add $32, %[b]\n\t") \
               ONYX_EPILOGUE(EACH, 1, ONYX_LOAD_CB1) \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [nb] "+r"(next_b) : [c] "r"(c), [ep] "r"(&ep) \
               : ONYX_CLOBBERS)
#define ONYX_FULL_PACKING(ROWS, EACH) \
  asm volatile(ONYX_ZERO "test %[n], %[n]\n\t" "jz 9f\n\t" "1:\n\t" ONYX_PREFETCH_A ONYX_STEPS ONYX_B_RAW ROWS ".endr\n\t" \
               "add $192, %[a]\n\t" "add $512, %[bo]\n\t" "dec %[n]\n\t" "jnz 1b\n\t" "9:\n\t" \
               ONYX_REST(ONYX_B_RAW ROWS ".endr\n\t" "add $24, %[a]\n\t" "add $64, %[bo]\n\t") \
               ONYX_EPILOGUE(EACH, , ONYX_LOAD_CB) \
               : [a] "+r"(a), [b] "+r"(b), [n] "+r"(groups), [bo] "+r"(b_out) \
               : [c] "r"(c), [ldb] "r"(ldb_bytes), [ep] "r"(&ep) : ONYX_CLOBBERS)

// The whole tile (kc >= 4) into C through avx2_epilogue, as above.
template <int MR, int NV, bool PackB>
[[gnu::always_inline]] inline void avx2_tile_full(std::int64_t kc, const float* a, const float* b, std::int64_t ldb,
                                                  float* b_out, const float* next_b, float* c,
                                                  const avx2_epilogue& ep) {
  std::int64_t groups = kc / avx2_loop_steps;
  if constexpr (NV == 1) {
    if (next_b) {
      if constexpr (MR == 6) ONYX_FULL_PACKED1(ONYX_ROWS1_6, ONYX_PREFETCH_NEXT_B1, ONYX_EACH1_6);
      else if constexpr (MR == 4) ONYX_FULL_PACKED1(ONYX_ROWS1_4, ONYX_PREFETCH_NEXT_B1, ONYX_EACH1_4);
      else ONYX_FULL_PACKED1(ONYX_ROWS1_2, ONYX_PREFETCH_NEXT_B1, ONYX_EACH1_2);
    } else {
      if constexpr (MR == 6) ONYX_FULL_PACKED1(ONYX_ROWS1_6, "", ONYX_EACH1_6);
      else if constexpr (MR == 4) ONYX_FULL_PACKED1(ONYX_ROWS1_4, "", ONYX_EACH1_4);
      else ONYX_FULL_PACKED1(ONYX_ROWS1_2, "", ONYX_EACH1_2);
    }
  } else if constexpr (PackB) {
    const std::int64_t ldb_bytes = ldb * static_cast<std::int64_t>(sizeof(float));
    if constexpr (MR == 6) ONYX_FULL_PACKING(ONYX_ROWS_6, ONYX_EACH2_6);
    else if constexpr (MR == 4) ONYX_FULL_PACKING(ONYX_ROWS_4, ONYX_EACH2_4);
    else ONYX_FULL_PACKING(ONYX_ROWS_2, ONYX_EACH2_2);
  } else if (next_b) {
    if constexpr (MR == 6) ONYX_FULL_PACKED(ONYX_ROWS_6, ONYX_PREFETCH_NEXT_B, ONYX_EACH2_6);
    else if constexpr (MR == 4) ONYX_FULL_PACKED(ONYX_ROWS_4, ONYX_PREFETCH_NEXT_B, ONYX_EACH2_4);
    else ONYX_FULL_PACKED(ONYX_ROWS_2, ONYX_PREFETCH_NEXT_B, ONYX_EACH2_2);
  } else {
    if constexpr (MR == 6) ONYX_FULL_PACKED(ONYX_ROWS_6, "", ONYX_EACH2_6);
    else if constexpr (MR == 4) ONYX_FULL_PACKED(ONYX_ROWS_4, "", ONYX_EACH2_4);
    else ONYX_FULL_PACKED(ONYX_ROWS_2, "", ONYX_EACH2_2);
  }
}

// The first avx2_loop_steps * groups steps (groups >= 1) of an MR-row tile
// from zero into acc; a, b (and b_out) advanced past them. Packed B: next_b
// (or null) is the next B panel, fetched a line a step. PackB: B's rows ldb
// floats apart, copied to b_out as they are read.
template <int MR, int NV, bool PackB>
[[gnu::always_inline]] inline void avx2_tile_groups(std::int64_t groups, const float*& a, const float*& b,
                                                    std::int64_t ldb, float*& b_out, const float* next_b,
                                                    vec (&acc)[MR][NV]) {
  alignas(32) float c[12 * 8];
  if constexpr (NV == 1) {  // packed B only (avx2_asm_tile); ymm6-11 stay zero and are stored unused
    if (next_b) {
      if constexpr (MR == 6) ONYX_PACKED_LOOP1(ONYX_ROWS1_6, ONYX_PREFETCH_NEXT_B1);
      else if constexpr (MR == 4) ONYX_PACKED_LOOP1(ONYX_ROWS1_4, ONYX_PREFETCH_NEXT_B1);
      else ONYX_PACKED_LOOP1(ONYX_ROWS1_2, ONYX_PREFETCH_NEXT_B1);
    } else {
      if constexpr (MR == 6) ONYX_PACKED_LOOP1(ONYX_ROWS1_6, "");
      else if constexpr (MR == 4) ONYX_PACKED_LOOP1(ONYX_ROWS1_4, "");
      else ONYX_PACKED_LOOP1(ONYX_ROWS1_2, "");
    }
    for (int i = 0; i < MR; ++i) acc[i][0] = load_vec(c + i * 8);
    return;
  } else if constexpr (PackB) {
    const std::int64_t ldb_bytes = ldb * static_cast<std::int64_t>(sizeof(float));
    if constexpr (MR == 6) ONYX_PACKING_LOOP(ONYX_ROWS_6);
    else if constexpr (MR == 4) ONYX_PACKING_LOOP(ONYX_ROWS_4);
    else ONYX_PACKING_LOOP(ONYX_ROWS_2);
  } else if (next_b) {
    if constexpr (MR == 6) ONYX_PACKED_LOOP(ONYX_ROWS_6, ONYX_PREFETCH_NEXT_B);
    else if constexpr (MR == 4) ONYX_PACKED_LOOP(ONYX_ROWS_4, ONYX_PREFETCH_NEXT_B);
    else ONYX_PACKED_LOOP(ONYX_ROWS_2, ONYX_PREFETCH_NEXT_B);
  } else {
    if constexpr (MR == 6) ONYX_PACKED_LOOP(ONYX_ROWS_6, "");
    else if constexpr (MR == 4) ONYX_PACKED_LOOP(ONYX_ROWS_4, "");
    else ONYX_PACKED_LOOP(ONYX_ROWS_2, "");
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV; ++j) acc[i][j] = load_vec(c + (i * 2 + j) * 8);
}
#undef ONYX_ROW
#undef ONYX_ROW1
#undef ONYX_ROWS1_2
#undef ONYX_ROWS1_4
#undef ONYX_ROWS1_6
#undef ONYX_PACKED_LOOP1
#undef ONYX_PREFETCH_NEXT_B1
#undef ONYX_ROWS_2
#undef ONYX_ROWS_4
#undef ONYX_ROWS_6
#undef ONYX_B_PACKED
#undef ONYX_B_RAW
#undef ONYX_PREFETCH_A
#undef ONYX_STEPS
#undef ONYX_PREFETCH_NEXT_B
#undef ONYX_ZERO
#undef ONYX_STORE
#undef ONYX_CLOBBERS
#undef ONYX_PACKED_LOOP
#undef ONYX_PACKING_LOOP
#undef ONYX_EP_ACC
#undef ONYX_EP_RB
#undef ONYX_EP_CB
#undef ONYX_EP_CLAMP
#undef ONYX_EP_ST
#undef ONYX_EP_ACC1
#undef ONYX_EP_RB1
#undef ONYX_EP_CB1
#undef ONYX_EP_CLAMP1
#undef ONYX_EP_ST1
#undef ONYX_EACH2_2
#undef ONYX_EACH2_4
#undef ONYX_EACH2_6
#undef ONYX_EACH1_2
#undef ONYX_EACH1_4
#undef ONYX_EACH1_6
#undef ONYX_EPILOGUE
#undef ONYX_LOAD_CB
#undef ONYX_LOAD_CB1
#undef ONYX_REST
#undef ONYX_FULL_PACKED
#undef ONYX_FULL_PACKED1
#undef ONYX_FULL_PACKING
#else
template <int MR, int NV, int AS, bool PackB>
constexpr bool avx2_asm_tile = false;
template <int MR, int NV, bool PackB>
void avx2_tile_groups(std::int64_t, const float*&, const float*&, std::int64_t, float*&, const float*,
                      vec (&)[MR][NV]) {}
template <int MR, int NV, bool PackB>
void avx2_tile_full(std::int64_t, const float*, const float*, std::int64_t, float*, const float*, float*,
                    const avx2_epilogue&) {}
#endif

// With PackB, `b` is the unpacked operand (row k of the panel at b + k*ldb)
// and the tile also writes the packed panel to b_out, so the first tile of a
// panel packs it while its FMAs run (a separate packing pass costs small-M
// products several percent: the raw rows come from far in memory).
// MR rows are computed from an A panel AS rows wide (AS > MR: a tile of few
// rows, see gemm_rows_of).
template <int MR, int NV, bool PackB = false, int AS = MR>
void gemm_tile(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
               int m, int n, const isa::f32_gemm_params& p, std::int64_t ldb = 0, float* b_out = nullptr) {
  constexpr int NR = NV * lanes;
  vec acc[MR][NV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = vec(0.0f);

  // C's tile is read (beta != 0, or a later K block) and written after the
  // k loop: start fetching its lines now, behind the kc steps of FMAs.
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    __builtin_prefetch(c + i * ldc, 1, 3);
    __builtin_prefetch(c + i * ldc + NR - 1, 1, 3);
  }
  if constexpr (uses_neon) {
    if constexpr (PackB) {
      gemm_pack(b, ldb, true, NR, kc, NR, b_out, kc * NR);
      b = b_out;
    }
    accumulate_by_lane<MR, NV, AS>(kc, a, b, acc);
  } else {
    const float* next_b = PackB ? nullptr : p.prefetch_b;
    std::int64_t k = 0;
    if constexpr (avx2_asm_tile<MR, NV, AS, PackB>) {
      if (kc >= 4 && m == MR && n == NR && p.alpha == 1.0f && (p.beta == 0.0f || p.beta == 1.0f)) {
        const avx2_epilogue ep{ldc * static_cast<std::int64_t>(sizeof(float)), p.row_bias, p.col_bias, p.min, p.max,
                               (p.beta != 0.0f ? 1 : 0) | (p.clamp ? 2 : 0), kc % avx2_loop_steps};
        avx2_tile_full<MR, NV, PackB>(kc, a, b, ldb, b_out, next_b, c, ep);
        return;
      }
      if (const std::int64_t groups = kc / avx2_loop_steps; groups > 0) {
        avx2_tile_groups<MR, NV, PackB>(groups, a, b, ldb, b_out, next_b, acc);
        k = groups * avx2_loop_steps;
        if (next_b) next_b += k * NR;
      }
    }
    // The steps left (all of them where the assembly loop does not apply).
    for (; k < kc; ++k, a += AS, b += PackB ? ldb : NR) {
      if (next_b) {
#pragma GCC unroll 4
        for (int j = 0; j < NR; j += 16) __builtin_prefetch(next_b + j);
        next_b += NR;
      }
      // A's micro-panel (prepacked weights) often comes from memory: fetch
      // 128 steps (6 KiB) ahead, a line per step: ResNet-50 at 1 thread ran
      // 45.3 ms without, 42.0 / 40.0 / 38.6 / 37.2 / 37.5 ms at 16 / 32 / 64 / 128
      // / 256 steps (Zen 5, onyx-run --runs 30, medians of 3).
      __builtin_prefetch(a + 128 * AS);
      vec bk[NV];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) bk[j] = load_vec(b + j * lanes);
      if constexpr (PackB) {
#pragma GCC unroll 4
        for (int j = 0; j < NR; j += 16) __builtin_prefetch(b + 16 * ldb + j);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) store_vec(b_out + j * lanes, bk[j]);
        b_out += NR;
      }
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const vec ai(a[i]);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[i][j] = fmadd(ai, bk[j], acc[i][j]);
      }
    }
  }

  if (m == MR && n == NR) {
    write_tile(acc, c, ldc, p);
    return;
  }
  // Edge tile: run the same vector epilogue on a full-size copy, so edge and
  // interior elements round identically, then write back only m x n.
  alignas(64) float tile[MR * NR] = {};
  alignas(64) float row_bias[MR] = {};
  alignas(64) float col_bias[NR] = {};
  isa::f32_gemm_params q = p;
  if (p.beta != 0.0f)
    for (int i = 0; i < m; ++i) std::memcpy(tile + i * NR, c + i * ldc, sizeof(float) * n);
  if (p.row_bias) q.row_bias = static_cast<const float*>(std::memcpy(row_bias, p.row_bias, sizeof(float) * m));
  if (p.col_bias) q.col_bias = static_cast<const float*>(std::memcpy(col_bias, p.col_bias, sizeof(float) * n));
  write_tile(acc, tile, NR, q);
  for (int i = 0; i < m; ++i) std::memcpy(c + i * ldc, tile + i * NR, sizeof(float) * n);
}

// A tile of m <= MR rows computed by the smallest of MR / 3, 2 MR / 3
// (or MR / 2) and MR rows that holds them, reading the A panel MR wide. A
// last tile of few rows (64 output channels: five of 12 rows and one of 4)
// costed a whole tile's FMAs; the rows' sums are the same in every size.
template <int MR, int NV, bool PackB = false>
void gemm_rows_of(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, int m, int n,
                  const isa::f32_gemm_params& p, std::int64_t ldb = 0, float* b_out = nullptr) {
  // NEON's tile needs whole vectors of A (MR / 3 rows would not be).
  constexpr int step = MR % 3 == 0 && (!uses_neon || MR % 12 == 0) ? MR / 3 : MR % (uses_neon ? 8 : 2) == 0 ? MR / 2 : MR;
  if constexpr (step < MR) {
    if (m <= step) return gemm_tile<step, NV, PackB, MR>(kc, a, b, c, ldc, m, n, p, ldb, b_out);
    if constexpr (2 * step < MR)
      if (m <= 2 * step) return gemm_tile<2 * step, NV, PackB, MR>(kc, a, b, c, ldc, m, n, p, ldb, b_out);
  }
  gemm_tile<MR, NV, PackB>(kc, a, b, c, ldc, m, n, p, ldb, b_out);
}

// --- GEMM operand packing (isa::f32_gemm_pack_fn) ---------------------------

#if defined(__AVX512F__)
// GCC 12's unpack intrinsics pass _mm512_undefined_ps() as the masked-off
// source and then warn that it may be uninitialized (GCC PR 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// In place: afterwards r[k] lane i holds what r[i] lane k held.
inline void transpose16(__m512 (&r)[16]) {
  __m512 t[16];
  for (int j = 0; j < 16; j += 2) {  // pairs of rows, interleaved by element
    t[j] = _mm512_unpacklo_ps(r[j], r[j + 1]);
    t[j + 1] = _mm512_unpackhi_ps(r[j], r[j + 1]);
  }
  for (int q = 0; q < 16; q += 4) {  // lane L of r[q + m]: rows q..q+3 of column 4L + m
    const __m512d a0 = _mm512_castps_pd(t[q]), a1 = _mm512_castps_pd(t[q + 1]);
    const __m512d a2 = _mm512_castps_pd(t[q + 2]), a3 = _mm512_castps_pd(t[q + 3]);
    r[q] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
    r[q + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
    r[q + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
    r[q + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
  }
  for (int m = 0; m < 4; ++m) {  // column 4L + m gathers lane L of r[m], r[4 + m], r[8 + m], r[12 + m]
    const __m512 even01 = _mm512_shuffle_f32x4(r[m], r[4 + m], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512 odd01 = _mm512_shuffle_f32x4(r[m], r[4 + m], _MM_SHUFFLE(3, 1, 3, 1));
    const __m512 even23 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512 odd23 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], _MM_SHUFFLE(3, 1, 3, 1));
    t[m] = _mm512_shuffle_f32x4(even01, even23, _MM_SHUFFLE(2, 0, 2, 0));       // column m
    t[4 + m] = _mm512_shuffle_f32x4(odd01, odd23, _MM_SHUFFLE(2, 0, 2, 0));     // column 4 + m
    t[8 + m] = _mm512_shuffle_f32x4(even01, even23, _MM_SHUFFLE(3, 1, 3, 1));   // column 8 + m
    t[12 + m] = _mm512_shuffle_f32x4(odd01, odd23, _MM_SHUFFLE(3, 1, 3, 1));    // column 12 + m
  }
  for (int k = 0; k < 16; ++k) r[k] = t[k];
}
#pragma GCC diagnostic pop
#endif

#if defined(__AVX2__)
// In place: afterwards r[k] lane i holds what r[i] lane k held (8 x 8).
inline void transpose8(__m256 (&r)[8]) {
  __m256 t[8], u[8];
  for (int j = 0; j < 8; j += 2) {  // pairs of rows, interleaved by element
    t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
    t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
  }
  for (int q = 0; q < 8; q += 4) {  // u[q + k]: rows q..q+3 of column k (low half) and k + 4 (high half)
    u[q] = _mm256_shuffle_ps(t[q], t[q + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[q + 1] = _mm256_shuffle_ps(t[q], t[q + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[q + 2] = _mm256_shuffle_ps(t[q + 1], t[q + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[q + 3] = _mm256_shuffle_ps(t[q + 1], t[q + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int k = 0; k < 4; ++k) {
    r[k] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
    r[k + 4] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
  }
}
#endif

// Rows w (k contiguous: (k, w) at src[w*ld + k]) into one panel, n of its
// `width` rows real and the rest zero.
void pack_rows_transposed(const float* src, std::int64_t ld, int n, std::int64_t kn, int width, float* d) {
#if defined(__AVX512F__)
  for (int g = 0; g < width; g += 16) {
    const int rows = std::max(0, std::min(16, n - g));
    const __mmask16 store = static_cast<__mmask16>((1u << std::min(16, width - g)) - 1);
    for (std::int64_t k = 0; k < kn; k += 16) {
      const int kk_n = static_cast<int>(std::min<std::int64_t>(16, kn - k));
      const __mmask16 load = static_cast<__mmask16>((1u << kk_n) - 1);
      __m512 r[16];
      for (int i = 0; i < 16; ++i)
        r[i] = i < rows ? _mm512_maskz_loadu_ps(load, src + (g + i) * ld + k) : _mm512_setzero_ps();
      transpose16(r);
      for (int kk = 0; kk < kk_n; ++kk) _mm512_mask_storeu_ps(d + (k + kk) * width + g, store, r[kk]);
    }
  }
#else
  std::int64_t k0 = 0;
#if defined(__AVX2__)
  // Eight steps of eight rows at a time through an 8x8 transpose, a row
  // past n read as zeros. A's panels (width 6: the rows of an activation
  // matrix, every product whose A is not prepacked) and K^T's in attention
  // had run the scalar loop below: BERT-12's packing at run time was 6.4% of
  // its GEMM tile's perf samples at 1 thread, 3.1% with this.
  // Width below 8: each step's 8-float store spills into the next step's
  // first floats, which that step's store then writes; the last one is cut.
  k0 = kn / 8 * 8;
  for (std::int64_t k = 0; k < k0; k += 8) {
    for (int g = 0; g < width; g += 8) {
      const int rows = std::max(0, std::min(8, n - g)), cols = std::min(8, width - g);
      __m256 r[8];
      for (int i = 0; i < 8; ++i) r[i] = i < rows ? _mm256_loadu_ps(src + (g + i) * ld + k) : _mm256_setzero_ps();
      transpose8(r);
      float* o = d + k * width + g;
      if (cols == 8) {
        for (int kk = 0; kk < 8; ++kk) _mm256_storeu_ps(o + kk * width, r[kk]);
        continue;
      }
      for (int kk = 0; kk < 8; ++kk) {
        if (width < 8 && kk < 7) {
          _mm256_storeu_ps(o + kk * width, r[kk]);
        } else if (cols == 6) {
          _mm_storeu_ps(o + kk * width, _mm256_castps256_ps128(r[kk]));
          _mm_storel_pi(reinterpret_cast<__m64*>(o + kk * width + 4), _mm256_extractf128_ps(r[kk], 1));
        } else {
          alignas(32) float last[8];
          _mm256_store_ps(last, r[kk]);
          std::memcpy(o + kk * width, last, sizeof(float) * static_cast<std::size_t>(cols));
        }
      }
    }
  }
#endif
  for (int i = 0; i < n; ++i) {
    const float* s = src + i * ld;
    for (std::int64_t k = k0; k < kn; ++k) d[k * width + i] = s[k];
  }
  for (std::int64_t k = k0; k < kn; ++k)
    for (int i = n; i < width; ++i) d[k * width + i] = 0.0f;
#endif
}

void gemm_pack(const float* src, std::int64_t ld, bool w_contiguous, std::int64_t wn, std::int64_t kn, int width,
               float* dst, std::int64_t panel_stride) {
  for (std::int64_t q = 0; q * width < wn; ++q) {
    float* d = dst + q * panel_stride;
    const std::int64_t w = q * width;
    const int n = static_cast<int>(std::min<std::int64_t>(width, wn - w));
    if (!w_contiguous) {
      pack_rows_transposed(src + w * ld, ld, n, kn, width, d);
    } else if (n == width && width % lanes == 0) {
      // A short piece of each of kn rows far apart: the hardware prefetcher
      // does not run ahead of that, so fetch a few rows early.
      constexpr std::int64_t ahead = 8;
      for (std::int64_t k = 0; k < kn; ++k) {
        const float* s = src + k * ld + w;
        float* dk = d + k * width;
        for (int i = 0; i < width; i += 16) __builtin_prefetch(s + ahead * ld + i);
        for (int i = 0; i < width; i += lanes) store_vec(dk + i, load_vec(s + i));
      }
    } else {
      for (std::int64_t k = 0; k < kn; ++k) {
        const float* s = src + k * ld + w;
        float* dk = d + k * width;
        for (int i = 0; i < n; ++i) dk[i] = s[i];
        for (int i = n; i < width; ++i) dk[i] = 0.0f;
      }
    }
  }
}

// --- even elements of two vectors --------------------------------------------
//
// (lo[0], lo[2], ..., hi[0], hi[2], ...): the stride-2 gather of strided_copy
// and of the pool's strided taps.
#if defined(__AVX512F__)
inline __m512 evens(__m512 lo, __m512 hi) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  return _mm512_permutex2var_ps(lo, even, hi);
}
#elif defined(__AVX2__)
inline __m256 evens(__m256 lo, __m256 hi) {
  // Per 128-bit half: lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6; then the middle pairs swap.
  const __m256 mixed = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
}
#elif defined(__SSE2__)
inline __m128 evens(__m128 lo, __m128 hi) { return _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)); }
#endif

// --- strided copy (isa::f32_strided_copy_fn) ---------------------------------

void strided_copy(const float* src, std::int64_t stride, std::int64_t n, float* dst) {
  std::int64_t k = 0;
  if (stride == 1) {
    if (n > 0) std::memcpy(dst, src, sizeof(float) * static_cast<std::size_t>(n));  // memcpy takes no null, even for 0
    return;
  }
#if defined(__AVX512F__)
  if (stride == 2) {
    // 16 outputs from the even elements of 31 inputs (the 32nd is not
    // loaded, so reads stop at src[2(n-1)]); the last, partial group by
    // masked loads and a masked store. im2col's copies are one panel (32
    // outputs) or less, so a scalar tail was half of every copy.
    for (; k + 16 <= n; k += 16) {
      const __m512 lo = _mm512_loadu_ps(src + 2 * k), hi = _mm512_maskz_loadu_ps(0x7fff, src + 2 * k + 16);
      _mm512_storeu_ps(dst + k, evens(lo, hi));
    }
    if (k < n) {
      const std::int64_t m = 2 * (n - k) - 1;  // inputs read: src[2k, 2k + m)
      const auto first = [](std::int64_t c) { return static_cast<__mmask16>(c >= 16 ? 0xffff : (1u << c) - 1u); };
      const __m512 lo = _mm512_maskz_loadu_ps(first(m), src + 2 * k);
      const __m512 hi = _mm512_maskz_loadu_ps(first(m > 16 ? m - 16 : 0), src + 2 * k + 16);
      _mm512_mask_storeu_ps(dst + k, first(n - k), evens(lo, hi));
      return;
    }
  }
#elif defined(__AVX2__)
  if (stride == 2) {  // 8 outputs from the even elements of 15 inputs (the 16th not loaded)
    const __m256i hi_mask = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);
    for (; k + 8 <= n; k += 8) {
      const __m256 lo = _mm256_loadu_ps(src + 2 * k), hi = _mm256_maskload_ps(src + 2 * k + 8, hi_mask);
      _mm256_storeu_ps(dst + k, evens(lo, hi));
    }
  }
#endif
  for (; k < n; ++k) dst[k] = src[k * stride];
}

// --- elementwise steps (isa::f32_step_fn) -----------------------------------
//
// Each step the same IEEE operations in the same order as its op's kernel
// (kernels/cpu/<op>.hpp's functor), so every level gives the unfused ops'
// bits: compares are ordered (false on NaN) as the scalar ones, NaN is asked
// for by is_nan (xsimd's != is ordered too), and no product is fused into an
// addition (the build is ISO C++, -ffp-contract=off).

// y[i] = f(a[i] or as, b[i] or bs) for i < n; f takes vectors and floats.
template <class F>
void step_loop(const float* a, float as, const float* b, float bs, float* y, std::int64_t n, F f) {
  std::int64_t i = 0;
  if constexpr (!is_scalar) {
    const vec av(as), bv(bs);
    if (a && b)
      for (; i + lanes <= n; i += lanes) store_vec(y + i, f(load_vec(a + i), load_vec(b + i)));
    else if (a)
      for (; i + lanes <= n; i += lanes) store_vec(y + i, f(load_vec(a + i), bv));
    else
      for (; i + lanes <= n; i += lanes) store_vec(y + i, f(av, load_vec(b + i)));
  }
  for (; i < n; ++i) y[i] = f(a ? a[i] : as, b ? b[i] : bs);
}

// Clip's clamp: the compares ordered as the scalar functor's, so a NaN
// passes through (clamp_to makes it lo).
template <class V>
V clamp_keeping_nan(V x, float lo, float hi) {
  const V w = where(x < V(lo), V(lo), x);
  return where(V(hi) < w, V(hi), w);
}

void elementwise_step(isa::f32_step op, const float* a, float as, const float* b, float bs, float p, float q, float* y,
                      std::int64_t n) {
  using isa::f32_step;
  const auto unary = [&](auto f) { step_loop(a, as, nullptr, 0.0f, y, n, [&](auto x, auto) { return f(x); }); };
  // std::clamp(v, lo, hi) as the HardSigmoid and HardSwish functors use it.
  const auto clamp01 = [](auto v) {
    using V = decltype(v);
    return where(v < V(0.0f), V(0.0f), where(V(1.0f) < v, V(1.0f), v));
  };
  switch (op) {
    case f32_step::add: return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return x + z; });
    case f32_step::sub: return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return x - z; });
    case f32_step::mul: return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return x * z; });
    case f32_step::div: return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return divide(x, z); });
    case f32_step::max:
      return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return where((x > z) | is_nan(x), x, z); });
    case f32_step::min:
      return step_loop(a, as, b, bs, y, n, [](auto x, auto z) { return where((x < z) | is_nan(x), x, z); });
    case f32_step::relu:
      return unary([](auto x) {
        using V = decltype(x);
        return where(x < V(0.0f), V(0.0f), x);
      });
    case f32_step::clip: return unary([p, q](auto x) { return clamp_keeping_nan(x, p, q); });
    case f32_step::leaky_relu:
      return unary([p](auto x) {
        using V = decltype(x);
        return where(x < V(0.0f), V(p) * x, x);
      });
    case f32_step::hard_sigmoid:
      return unary([p, q, clamp01](auto x) {
        using V = decltype(x);
        return clamp01(V(p) * x + V(q));
      });
    case f32_step::hard_swish:
      return unary([clamp01](auto x) {
        using V = decltype(x);
        return x * clamp01(divide(x, V(6.0f)) + V(0.5f));
      });
    case f32_step::neg: return unary([](auto x) { return -x; });
    case f32_step::abs:
      return unary([](auto x) {
        using V = decltype(x);
        return where(x < V(0.0f), -x, x);
      });
  }
}

// isa::f32_hard_swish_form_fn: the steps add, clip, mul, div (and mul, add)
// of elementwise_step, one vector through all of them; each operation its
// own statement, so nothing is contracted into an FMA.
void hard_swish_form(const float* x, float c, float lo, float hi, float d, bool affine, float s, float t, float* y,
                     std::int64_t n) {
  const auto steps = [&](auto v) {
    using V = decltype(v);
    V u = v + V(c);
    u = clamp_keeping_nan(u, lo, hi);
    u = v * u;
    u = divide(u, V(d));
    return u;
  };
  if (!affine) return step_loop(x, 0.0f, nullptr, 0.0f, y, n, [&](auto v, auto) { return steps(v); });
  step_loop(x, 0.0f, nullptr, 0.0f, y, n, [&](auto v, auto) {
    using V = decltype(v);
    V u = steps(v);
    u = rounded(u * V(s));
    u = u + V(t);
    return u;
  });
}

// isa::f32_affine_fn: x * scale + shift (a product and a sum, as the
// BatchNormalization kernel computes it in float), then Clip's clamp.
void affine_clamp(const float* x, float scale, float shift, float lo, float hi, float* y, std::int64_t n) {
  step_loop(x, 0.0f, nullptr, 0.0f, y, n, [&](auto v, auto) {
    using V = decltype(v);
    return clamp_keeping_nan(v * V(scale) + V(shift), lo, hi);
  });
}

// --- transcendentals ---------------------------------------------------------

// exp(x) = 2^n * e^r with n = round(x / ln2), r = x - n*ln2 in [-ln2/2, ln2/2]
// (ln2 split in two so n*ln2_hi is exact), e^r by a degree-7 polynomial
// (Cephes expf coefficients, rel err ~1e-7). x is clamped to [-104, ln FLT_MAX]
// and 2^n is applied as two factors, so n in [-150, 128] works and subnormal
// results come out gradual; x > ln FLT_MAX gives inf, NaN stays NaN.
// e^xc for xc already in [-104, ln FLT_MAX] (or NaN): the reduction, the
// polynomial and the scaling by 2^n that exp_of and exp_nonpositive share.
//
// exp_clamped_n runs N such vectors in place, each step across all N before
// the next, so their N dependency chains (some 50 cycles each) interleave in
// program order: written one vector at a time, the out-of-order window held
// the steps of too few vectors to keep the FMA pipes busy (softmax rows of
// 128 keys ran at about 16 cycles a vector).
template <int N, class V>
void exp_clamped_n(V (&x)[N]) {
  V n[N], r[N], y[N];
  for (int i = 0; i < N; ++i) n[i] = round_small(x[i] * V(1.44269504088896341f));
  for (int i = 0; i < N; ++i) r[i] = fmadd(n[i], V(-0.693359375f), x[i]);
  for (int i = 0; i < N; ++i) r[i] = fmadd(n[i], V(2.12194440e-4f), r[i]);
  for (int i = 0; i < N; ++i) y[i] = fmadd(V(1.9875691500e-4f), r[i], V(1.3981999507e-3f));
  for (int i = 0; i < N; ++i) y[i] = fmadd(y[i], r[i], V(8.3334519073e-3f));
  for (int i = 0; i < N; ++i) y[i] = fmadd(y[i], r[i], V(4.1665795894e-2f));
  for (int i = 0; i < N; ++i) y[i] = fmadd(y[i], r[i], V(1.6666665459e-1f));
  for (int i = 0; i < N; ++i) y[i] = fmadd(y[i], r[i], V(5.0000001201e-1f));
  for (int i = 0; i < N; ++i) y[i] = fmadd(y[i], r[i] * r[i], r[i]) + V(1.0f);
#if defined(__AVX512F__)
  if constexpr (lanes_of<V> == 16) {
    for (int i = 0; i < N; ++i) x[i] = V(_mm512_scalef_ps(y[i], n[i]));  // y * 2^n in one step, subnormal results included
    return;
  }
#endif
  for (int i = 0; i < N; ++i) {
    const V n1 = half_floor(n[i]);  // n in [-150, 128]: two factors, each a normal power of two
    x[i] = y[i] * pow2i(n1) * pow2i(n[i] - n1);
  }
}

template <class V>
V exp_clamped(V xc) {
  V x[1] = {xc};
  exp_clamped_n(x);
  return x[0];
}

template <class V>
V exp_of(V x) {
  const V y = exp_clamped(clamp_to(x, V(-104.0f), V(88.72283935546875f)));
  return where(is_nan(x), x, where(x > V(88.72283935546875f), V(inf), y));
}

// exp_of for N vectors of x <= 0 or NaN (softmax's x - max) in place, their
// chains interleaved (exp_clamped_n): on x86 vectors the lower clamp is one
// vmaxps(-104, x), which passes a NaN x through (the second operand), so
// neither the overflow test nor the NaN blend is needed; the same bits as
// exp_of there. (The scalar level goes through exp_of: xsimd::max on two
// floats is std::max, which drops a NaN second operand.)
template <int N, class V>
void exp_nonpositive_n(V (&x)[N]) {
#if defined(__SSE2__)
  if constexpr (!is_scalar) {
    for (int i = 0; i < N; ++i) x[i] = xsimd::max(V(-104.0f), x[i]);
    exp_clamped_n(x);
    return;
  }
#endif
  for (int i = 0; i < N; ++i) x[i] = exp_of(x[i]);
}

template <class V>
V exp_nonpositive(V x) {
  V v[1] = {x};
  exp_nonpositive_n(v);
  return v[0];
}

template <class V>
V logistic_of(V x) {
  return divide(V(1.0f), V(1.0f) + exp_of(V(0.0f) - x));
}

// tanh: for |x| < 0.625, x + x^3 P(x^2) (Cephes tanhf coefficients) keeps the
// relative error small near 0; elsewhere 1 - 2 / (e^{2|x|} + 1) with the sign
// of x, which saturates to 1 as e^{2|x|} overflows.
template <class V>
V tanh_of(V x) {
  const V z = x * x;
  V p(-5.70498872745e-3f);
  p = fmadd(p, z, V(2.06390887954e-2f));
  p = fmadd(p, z, V(-5.37397155531e-2f));
  p = fmadd(p, z, V(1.33314422036e-1f));
  p = fmadd(p, z, V(-3.33332819422e-1f));
  const V small = fmadd(p * z, x, x);
  const V a = where(x < V(0.0f), V(0.0f) - x, x);
  V large = V(1.0f) - divide(V(2.0f), exp_of(a + a) + V(1.0f));
  large = where(x < V(0.0f), V(0.0f) - large, large);
  return where(a < V(0.625f), small, large);
}

// x clamped to [lo, hi], a NaN x passed through: on x86 vectors minps and
// maxps return their second operand when either is NaN.
template <class V>
V clamp_nan_passes(V x, float lo, float hi) {
#if defined(__SSE2__)
  if constexpr (!is_scalar) return xsimd::max(V(lo), xsimd::min(V(hi), x));
#endif
  return where(is_nan(x), x, clamp_to(x, V(lo), V(hi)));
}

// erf(x) = x P(x^2) / Q(x^2) for |x| <= 4 (erf rounds to +-1 from 3.92 on),
// P and Q of degree 5: a rational fit to erf on [0, 4] in absolute error
// (linearized least squares, reweighted toward minimax: tools/fit_erf.py;
// 2.1e-8 in exact arithmetic), max abs err 3.6e-7 in float over every float
// input. Odd in x
// as written (-0 stays -0), clamped to [-1, 1], NaN passes. 17 operations
// and one division where Abramowitz & Stegun 7.1.26 (1 - t P(t) e^{-x^2})
// took an exp, a division and the sign fix-ups: GELU over 196608 floats
// 56 -> 38 us.
struct erf_fit {
  // Coefficients of P and Q in t = x^2, highest power first.
  static constexpr std::array<float, 6> p = {1.97452323e-06f, 2.87992851e-04f, 4.00294876e-03f,
                                              5.34653887e-02f, 1.96237266e-01f, 1.12837899e+00f};
  static constexpr std::array<float, 6> q = {3.74750598e-05f, 1.21612544e-03f, 1.54431174e-02f,
                                              1.16471075e-01f, 5.07241905e-01f, 1.0f};
};

// c[0] t^(N-1) + ... + c[N-1], by Horner's rule in multiply-adds.
template <class V, std::size_t N>
V polynomial(const std::array<float, N>& c, V t) {
  V r(c[0]);
#pragma GCC unroll 8
  for (std::size_t k = 1; k < N; ++k) r = fmadd(r, t, V(c[k]));
  return r;
}

template <class V>
V erf_of(V x) {
  const V a = clamp_nan_passes(x, -4.0f, 4.0f);
  const V t = a * a;
  const V y = divide(a * polynomial(erf_fit::p, t), polynomial(erf_fit::q, t));
  return clamp_nan_passes(y, -1.0f, 1.0f);
}

// GELU(x) = x Phi(x), Phi(x) = 1/2 + 1/2 erf(x / sqrt 2) = (Q(t)/2 + u P(t)) / Q(t)
// with u = x clamped to +-4 sqrt 2 (where erf_of clamps x / sqrt 2) and
// t = u^2: erf_of's rational fit with 1 / sqrt 2 and 1/2 folded into its
// coefficients (p_k / (2^k 2 sqrt 2), q_k / 2^k, k the power of t), so the
// same function to rounding, in 14 multiply-adds and a division where the
// composition took 18 (GELU over 196608 floats 30.8 -> 28.2 us at avx512).
// NaN passes; -inf gives NaN, as x/2 (1 + erf(x / sqrt 2)) does.
// c[k] / (2^power * divisor), the power of t being N - 1 - k.
template <std::size_t N>
constexpr std::array<float, N> scaled_fit(const std::array<float, N>& c, double divisor) {
  std::array<float, N> out{};
  for (std::size_t k = 0; k < N; ++k) {
    double d = divisor;
    for (std::size_t i = k + 1; i < N; ++i) d *= 2.0;
    out[k] = static_cast<float>(static_cast<double>(c[k]) / d);
  }
  return out;
}

struct gelu_fit {
  static constexpr double sqrt2 = 1.4142135623730950488;
  static constexpr float bound = static_cast<float>(4.0 * sqrt2);
  static constexpr std::array<float, 6> p = scaled_fit(erf_fit::p, 2.0 * sqrt2), q = scaled_fit(erf_fit::q, 1.0);
};

template <class V>
V gelu_of(V x) {
  const V u = clamp_nan_passes(x, -gelu_fit::bound, gelu_fit::bound);
  const V t = u * u;
  const V q = polynomial(gelu_fit::q, t);
  V phi = divide(fmadd(V(0.5f), q, u * polynomial(gelu_fit::p, t)), q);
  // Past the clamp Phi is 0 or 1 exactly, not the fit's residue there (a
  // few 1e-7 either side, which x = -1e6 would scale to 0.03).
  phi = where(x <= V(-gelu_fit::bound), V(0.0f), phi);
  phi = where(x >= V(gelu_fit::bound), V(1.0f), phi);
  return x * phi;
}

// y[i] = f(x[i]): whole vectors, then the tail through a zero-padded copy.
template <class F>
void map(const float* x, float* y, std::int64_t n, F f) {
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes) store_vec(y + i, f(load_vec(x + i)));
  if (i < n) {
    alignas(64) float t[lanes] = {};
    std::memcpy(t, x + i, sizeof(float) * (n - i));
    store_vec(t, f(load_vec(t)));
    std::memcpy(y + i, t, sizeof(float) * (n - i));
  }
}

void exp_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) { return exp_of(v); });
}
void logistic_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) { return logistic_of(v); });
}
void tanh_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) { return tanh_of(v); });
}
void erf_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) { return erf_of(v); });
}

// GELU, erf form x/2 (1 + erf(x / sqrt 2)), and tanh form
// x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); x == y is allowed (a GEMM
// epilogue applies them in place to the rows of a finished tile).
void gelu_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) { return gelu_of(v); });
}
void gelu_tanh_array(const float* x, float* y, std::int64_t n) {
  map(x, y, n, [](vec v) {
    const vec inner = vec(0.79788456080286535f) * fmadd(vec(0.044715f) * v * v, v, v);
    return (vec(0.5f) * v) * (vec(1.0f) + tanh_of(inner));
  });
}

// LayerNorm of one row (isa::f32_layer_norm_fn): vector sums, scalar tails.
// With skip, the first pass also forms t = (x + skip) (+ add) and stores it
// to `sum`, the later passes reading t there (SkipLayerNormalization added
// the row in a pass of its own before).
void layer_norm_row(const float* x, const float* skip, const float* add, float* sum_out, float* y, std::int64_t n,
                    const float* scale, const float* bias, float eps, float* stats) {
  const std::int64_t whole = n - n % lanes;
  vec s(0.0f);
  float sum;
  if (skip) {
    for (std::int64_t i = 0; i < whole; i += lanes) {
      vec t = load_vec(x + i) + load_vec(skip + i);
      if (add) t = t + load_vec(add + i);
      store_vec(sum_out + i, t);
      s = s + t;
    }
    sum = reduce_add(s);
    for (std::int64_t i = whole; i < n; ++i) {
      const float t = add ? x[i] + skip[i] + add[i] : x[i] + skip[i];
      sum_out[i] = t;
      sum += t;
    }
    x = sum_out;
  } else {
    for (std::int64_t i = 0; i < whole; i += lanes) s = s + load_vec(x + i);
    sum = reduce_add(s);
    for (std::int64_t i = whole; i < n; ++i) sum += x[i];
  }
  const float mean = sum / static_cast<float>(n);
  const vec m(mean);
  vec q(0.0f);
  for (std::int64_t i = 0; i < whole; i += lanes) {
    const vec d = load_vec(x + i) - m;
    q = fmadd(d, d, q);
  }
  float sq = reduce_add(q);
  for (std::int64_t i = whole; i < n; ++i) sq += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / std::sqrt(sq / static_cast<float>(n) + eps);
  const vec iv(inv);
  if (bias) {
    for (std::int64_t i = 0; i < whole; i += lanes)
      store_vec(y + i, fmadd((load_vec(x + i) - m) * iv, load_vec(scale + i), load_vec(bias + i)));
    for (std::int64_t i = whole; i < n; ++i) y[i] = (x[i] - mean) * inv * scale[i] + bias[i];
  } else {
    for (std::int64_t i = 0; i < whole; i += lanes) store_vec(y + i, (load_vec(x + i) - m) * iv * load_vec(scale + i));
    for (std::int64_t i = whole; i < n; ++i) y[i] = (x[i] - mean) * inv * scale[i];
  }
  stats[0] = mean;
  stats[1] = inv;
}

// Softmax of R rows at once (x row r at x + r * ldx, y row r at y + r * ldy;
// x == y allowed), each after adding its bias row (bias + r * ldb, ldb 0 for
// one row shared by all) when Bias: t = x + b, then y = exp(t - max t) / sum,
// or, with inv_sums, y = exp(t - max t) and inv_sums[r] = 1 / sum (a caller
// that scales something smaller later: attention's output rows). Per row:
// the maximum, then exp(t - max) stored with two running sums (even and odd
// vectors, the tail with the odd), then y *= 1 / sum. The tail goes through
// a copy padded with -inf, which adds exp(-inf) = 0 to the sum. A NaN in t
// is skipped by the max (maxps returns its second operand, the running max,
// when either is NaN) and reaches the output through exp.
template <int R, bool Bias>
void softmax_group(const float* x, std::int64_t ldx, float* y, std::int64_t ldy, std::int64_t n, const float* bias,
                   std::int64_t ldb, float* inv_sums) {
  const std::int64_t whole = n - n % lanes;
  const auto in = [&](int r, std::int64_t i) {
    const vec v = load_vec(x + r * ldx + i);
    if constexpr (Bias) return v + load_vec(bias + r * ldb + i);
    else return v;
  };
  const auto larger = [](vec v, vec acc) {
#if defined(__SSE2__)
    return xsimd::max(v, acc);
#else
    return where(v > acc, v, acc);
#endif
  };
  alignas(64) float t[R][lanes];
  vec top[R];
  for (int r = 0; r < R; ++r) {
    for (int l = 0; l < lanes; ++l) t[r][l] = -inf;
    for (std::int64_t j = whole; j < n; ++j)
      t[r][j - whole] = Bias ? x[r * ldx + j] + bias[r * ldb + j] : x[r * ldx + j];
    top[r] = load_vec(t[r]);
  }
  for (std::int64_t i = 0; i < whole; i += lanes)
    for (int r = 0; r < R; ++r) top[r] = larger(in(r, i), top[r]);
  vec m[R], sum0[R], sum1[R];
  for (int r = 0; r < R; ++r) {
    m[r] = vec(reduce_max(top[r]));
    sum0[r] = vec(0.0f);
    sum1[r] = vec(0.0f);
  }
  // exp over one vector of each row at a time (two of a lone row): R (or 2)
  // chains interleaved; even vectors sum into sum0, odd ones into sum1.
  constexpr int C = R == 1 ? 2 : R;
  std::int64_t i = 0;
  for (; i + 2 * lanes <= whole; i += 2 * lanes) {
    vec e[C];
    if constexpr (R == 1) {
      e[0] = in(0, i) - m[0];
      e[1] = in(0, i + lanes) - m[0];
      exp_nonpositive_n(e);
      store_vec(y + i, e[0]);
      store_vec(y + i + lanes, e[1]);
      sum0[0] = sum0[0] + e[0];
      sum1[0] = sum1[0] + e[1];
    } else {
      for (int half = 0; half < 2; ++half) {
        const std::int64_t at = i + half * lanes;
        for (int r = 0; r < R; ++r) e[r] = in(r, at) - m[r];
        exp_nonpositive_n(e);
        for (int r = 0; r < R; ++r) {
          store_vec(y + r * ldy + at, e[r]);
          (half ? sum1 : sum0)[r] = (half ? sum1 : sum0)[r] + e[r];
        }
      }
    }
  }
  if (i < whole) {
    vec e[R];
    for (int r = 0; r < R; ++r) e[r] = in(r, i) - m[r];
    exp_nonpositive_n(e);
    for (int r = 0; r < R; ++r) {
      store_vec(y + r * ldy + i, e[r]);
      sum0[r] = sum0[r] + e[r];
    }
  }
  if (whole < n)  // the tails, padded with -inf (exp 0)
    for (int r = 0; r < R; ++r) {
      const vec e = exp_nonpositive(load_vec(t[r]) - m[r]);
      store_vec(t[r], e);
      sum1[r] = sum1[r] + e;
    }
  float inv[R];
  for (int r = 0; r < R; ++r) inv[r] = 1.0f / reduce_add(sum0[r] + sum1[r]);
  if (inv_sums) {
    for (int r = 0; r < R; ++r) inv_sums[r] = inv[r];
  } else {
    for (std::int64_t i = 0; i < whole; i += lanes)
      for (int r = 0; r < R; ++r) store_vec(y + r * ldy + i, load_vec(y + r * ldy + i) * vec(inv[r]));
    if (whole < n)
      for (int r = 0; r < R; ++r) store_vec(t[r], load_vec(t[r]) * vec(inv[r]));
  }
  if (whole < n)
    for (int r = 0; r < R; ++r) std::memcpy(y + r * ldy + whole, t[r], sizeof(float) * (n - whole));
}

// isa::f32_softmax_rows_fn: rows in groups of four, the rest one at a time.
void softmax_rows(const float* x, std::int64_t ldx, float* y, std::int64_t ldy, std::int64_t rows, std::int64_t n,
                  const float* bias, std::int64_t ldb, float* inv_sums) {
  if (n <= 0) return;
  std::int64_t r = 0;
  const auto run = [&]<int R>(std::integral_constant<int, R>) {
    const float* xr = x + r * ldx;
    float* yr = y + r * ldy;
    float* inv = inv_sums ? inv_sums + r : nullptr;
    if (bias) softmax_group<R, true>(xr, ldx, yr, ldy, n, bias + r * ldb, ldb, inv);
    else softmax_group<R, false>(xr, ldx, yr, ldy, n, nullptr, 0, inv);
    r += R;
  };
  while (r + 4 <= rows) run(std::integral_constant<int, 4>{});
  while (r < rows) run(std::integral_constant<int, 1>{});
}

// --- Winograd F(4x4, 3x3) transforms ----------------------------------------
//
// Interpolation points 0, +-1, +-2 and infinity (the usual choice for F(4,3):
// the smallest points, so the smallest rounding error). Each transform is a
// 1-D transform applied to the rows, then to the columns, of a 6x6 block, and
// runs on `lanes` tiles at once: lane l of every vector belongs to tile j0 + l.

// t = B^T d for one column of 6 values.
template <class V>
void winograd_bt6(const V (&d)[6], V (&t)[6]) {
  t[0] = fmadd(V(4.0f), d[0], fmadd(V(-5.0f), d[2], d[4]));
  t[1] = fmadd(V(-4.0f), d[1] + d[2], d[3] + d[4]);
  t[2] = fmadd(V(4.0f), d[1] - d[2], d[4] - d[3]);
  t[3] = fmadd(V(2.0f), d[3] - d[1], d[4] - d[2]);
  t[4] = fmadd(V(2.0f), d[1] - d[3], d[4] - d[2]);
  t[5] = fmadd(V(4.0f), d[1], fmadd(V(-5.0f), d[3], d[5]));
}

// o = A^T m for one column of 6 values.
template <class V>
void winograd_at6(const V (&m)[6], V (&o)[4]) {
  const V a = m[1] + m[2], b = m[1] - m[2], c = m[3] + m[4], d = m[3] - m[4];
  o[0] = m[0] + a + c;
  o[1] = fmadd(V(2.0f), d, b);
  o[2] = fmadd(V(4.0f), c, a);
  o[3] = fmadd(V(8.0f), d, b) + m[5];
}

// V = B^T d B for one channel of `lanes` tiles, d[r * 6 + q] their (r, q)
// elements, element xi of V stored at v + xi * xi_stride.
template <class V>
void winograd_input_tile(const V (&d)[36], float* v, std::int64_t xi_stride) {
  V t[6][6];  // t[k][q] = (B^T d)[k][q]
  for (int q = 0; q < 6; ++q) {
    V col[6], out[6];
    for (int r = 0; r < 6; ++r) col[r] = d[r * 6 + q];
    winograd_bt6(col, out);
    for (int k = 0; k < 6; ++k) t[k][q] = out[k];
  }
  for (int k = 0; k < 6; ++k) {
    V out[6];
    winograd_bt6(t[k], out);
    for (int q = 0; q < 6; ++q) store_vec(v + (k * 6 + q) * xi_stride, out[q]);
  }
}

#if defined(__AVX512F__)
// winograd_f4k3_input for 16 lanes of tiles, the first one's V at vj (false
// elsewhere, where the caller gathers element by element). Each lane's patch row by one
// masked load (the columns inside the image; a lane past the block or a row
// outside it is zero), then the 16 rows transposed in registers: lane l of
// vector q is tile l's column q. Gathered element by element through a
// buffer instead, the input transform of DenseNet-121's growth layers (128
// channels in, 32 out) took 55% of the layer, much of it waiting for the
// buffer's vector loads, which its scalar stores could not forward. A
// template, so that the levels of fewer lanes never compile the branch.
template <class V>
bool winograd_input_x16(const isa::winograd_input_args& a, float* vj, const bool* live, const std::int64_t* iy,
                        const std::int64_t* ix, const std::int64_t* base) {
  if constexpr (lanes_of<V> != 16) {
    (void)a, (void)vj, (void)live, (void)iy, (void)ix, (void)base;
    return false;
  } else {
    const std::int64_t nr = a.panel, H = a.height, W = a.width, plane = H * W;
    __mmask16 columns[16] = {};
    for (int l = 0; l < 16; ++l) {
      if (!live[l]) continue;
      for (int q = 0; q < 6; ++q)
        if (ix[l] + q >= 0 && ix[l] + q < W) columns[l] = static_cast<__mmask16>(columns[l] | (1u << q));
    }
    for (std::int64_t c = 0; c < a.channels; ++c) {
      V d[36];
      for (int r = 0; r < 6; ++r) {
        __m512 rows[16];
        for (int l = 0; l < 16; ++l) {
          const std::int64_t y = iy[l] + r;
          if (!columns[l] || y < 0 || y >= H) {
            rows[l] = _mm512_setzero_ps();
            continue;
          }
          // Lane q reads column ix + q (ix may be -1: the address is formed
          // as an integer); masked-off lanes read nothing.
          const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(a.x + base[l] + c * plane + y * W) +
                                    static_cast<std::uintptr_t>(ix[l] * static_cast<std::int64_t>(sizeof(float)));
          rows[l] = _mm512_maskz_loadu_ps(columns[l], reinterpret_cast<const float*>(at));
        }
        transpose16(rows);
        for (int q = 0; q < 6; ++q) d[r * 6 + q] = V(rows[q]);
      }
      winograd_input_tile(d, vj + c * nr, a.xi_stride);
    }
    return true;
  }
}
#endif

#if defined(__AVX2__)

// winograd_input_x16's AVX2 twin: 8 lanes, a row of a lane by one masked
// load (vmaskmovps; a plain load where all 8 floats lie in the row: lanes 6
// and 7 become vectors 6 and 7 of the transpose, which go unused), an 8x8
// transpose.
template <class V>
bool winograd_input_x8(const isa::winograd_input_args& a, float* vj, const bool* live, const std::int64_t* iy,
                       const std::int64_t* ix, const std::int64_t* base) {
  if constexpr (lanes_of<V> != 8) {
    (void)a, (void)vj, (void)live, (void)iy, (void)ix, (void)base;
    return false;
  } else {
    const std::int64_t nr = a.panel, H = a.height, W = a.width, plane = H * W;
    __m256i columns[8];
    bool any[8] = {}, whole[8] = {};
    for (int l = 0; l < 8; ++l) {
      alignas(32) std::int32_t m[8] = {};
      for (int q = 0; q < 6 && live[l]; ++q) m[q] = ix[l] + q >= 0 && ix[l] + q < W ? -1 : 0;
      columns[l] = _mm256_load_si256(reinterpret_cast<const __m256i*>(m));
      any[l] = live[l] && ix[l] + 5 >= 0 && ix[l] < W;
      whole[l] = live[l] && ix[l] >= 0 && ix[l] + 8 <= W;
    }
    for (std::int64_t c = 0; c < a.channels; ++c) {
      V d[36];
      for (int r = 0; r < 6; ++r) {
        __m256 rows[8];
        for (int l = 0; l < 8; ++l) {
          const std::int64_t y = iy[l] + r;
          if (!any[l] || y < 0 || y >= H) {
            rows[l] = _mm256_setzero_ps();
            continue;
          }
          const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(a.x + base[l] + c * plane + y * W) +
                                    static_cast<std::uintptr_t>(ix[l] * static_cast<std::int64_t>(sizeof(float)));
          const float* p = reinterpret_cast<const float*>(at);
          rows[l] = whole[l] ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, columns[l]);  // lanes 6, 7 unused
        }
        transpose8(rows);
        for (int q = 0; q < 6; ++q) d[r * 6 + q] = V(rows[q]);
      }
      winograd_input_tile(d, vj + c * nr, a.xi_stride);
    }
    return true;
  }
}
#endif

// The 6x6 patches of `lanes` tiles are gathered (zero outside the image) into
// d[36][lanes], so the transform itself is all vector code.
void winograd_f4k3_input(const isa::winograd_input_args& a) {
  const std::int64_t nr = a.panel;
  constexpr int L = lanes;
  const std::int64_t H = a.height, W = a.width, plane = H * W;
  for (std::int64_t j0 = 0; j0 < a.nb; j0 += L) {
    std::int64_t base[L] = {}, iy[L] = {}, ix[L] = {};
    bool live[L] = {}, inside[L] = {};
    for (int l = 0; l < L; ++l) {
      const std::int64_t j = j0 + l;
      live[l] = j < a.tiles;
      inside[l] = false;
      if (!live[l]) continue;
      const std::int64_t t = a.first_tile + j, img = t / a.tiles_per_image, r = t % a.tiles_per_image;
      iy[l] = (r / a.tiles_w) * 4 - a.pad_top;
      ix[l] = (r % a.tiles_w) * 4 - a.pad_left;
      inside[l] = iy[l] >= 0 && iy[l] + 6 <= H && ix[l] >= 0 && ix[l] + 6 <= W;
      base[l] = img * a.image_stride;
    }
    float* vj = a.v + (j0 / nr) * a.channels * nr + j0 % nr;
#if defined(__AVX512F__)
    if (winograd_input_x16<vec>(a, vj, live, iy, ix, base)) continue;
#endif
#if defined(__AVX2__)
    if (winograd_input_x8<vec>(a, vj, live, iy, ix, base)) continue;
#endif
    for (std::int64_t c = 0; c < a.channels; ++c) {
      alignas(64) float d[36][L];
      for (int l = 0; l < L; ++l) {
        if (!live[l]) {
          for (int e = 0; e < 36; ++e) d[e][l] = 0.0f;
          continue;
        }
        const float* xc = a.x + base[l] + c * plane;
        if (inside[l]) {
          const float* p = xc + iy[l] * W + ix[l];
          for (int r = 0; r < 6; ++r)
            for (int q = 0; q < 6; ++q) d[r * 6 + q][l] = p[r * W + q];
        } else {
          for (int r = 0; r < 6; ++r) {
            const std::int64_t y = iy[l] + r;
            for (int q = 0; q < 6; ++q) {
              const std::int64_t x = ix[l] + q;
              d[r * 6 + q][l] = y >= 0 && y < H && x >= 0 && x < W ? xc[y * W + x] : 0.0f;
            }
          }
        }
      }
      vec dv[36];
      for (int e = 0; e < 36; ++e) dv[e] = load_vec(d[e]);
      winograd_input_tile(dv, vj + c * nr, a.xi_stride);
    }
  }
}

#if defined(__AVX512F__)
// winograd_f4k3_output's stores for 16 lanes of tiles (false elsewhere):
// the 16 output vectors in o transposed in registers (lane p*4 + q of
// vector l: tile l's (p, q)), then each tile row as one masked store of its
// 128-bit quarter. Stored element by element, these stores held up the
// output transform (SqueezeNet's 27x27 layer, perf annotate).
template <class V>
bool winograd_output_x16(const float (*o)[lanes], float* y, const std::int64_t* off, const int* rows_in,
                         const int* cols_in, int n, std::int64_t out_w) {
  if constexpr (lanes_of<V> != 16) {
    (void)o, (void)y, (void)off, (void)rows_in, (void)cols_in, (void)n, (void)out_w;
    return false;
  } else {
    __m512 t[16];
    for (int e = 0; e < 16; ++e) t[e] = _mm512_load_ps(o[e]);
    transpose16(t);
    for (int l = 0; l < n; ++l) {
      const __mmask8 cols = static_cast<__mmask8>((1u << cols_in[l]) - 1u);
      float* yt = y + off[l];
      if (rows_in[l] > 0) _mm_mask_storeu_ps(yt, cols, _mm512_extractf32x4_ps(t[l], 0));
      if (rows_in[l] > 1) _mm_mask_storeu_ps(yt + out_w, cols, _mm512_extractf32x4_ps(t[l], 1));
      if (rows_in[l] > 2) _mm_mask_storeu_ps(yt + 2 * out_w, cols, _mm512_extractf32x4_ps(t[l], 2));
      if (rows_in[l] > 3) _mm_mask_storeu_ps(yt + 3 * out_w, cols, _mm512_extractf32x4_ps(t[l], 3));
    }
    return true;
  }
}
#endif

#if defined(__AVX2__)
// winograd_output_x16's AVX2 twin: o's 16 vectors of 8 lanes as two 8x8
// transposes (rows 0-1 of each tile, rows 2-3), each tile row one store
// (masked where the tile's last columns lie outside the image).
template <class V>
bool winograd_output_x8(const float (*o)[lanes], float* y, const std::int64_t* off, const int* rows_in,
                        const int* cols_in, int n, std::int64_t out_w) {
  if constexpr (lanes_of<V> != 8) {
    (void)o, (void)y, (void)off, (void)rows_in, (void)cols_in, (void)n, (void)out_w;
    return false;
  } else {
    __m256 top[8], bottom[8];
    for (int e = 0; e < 8; ++e) {
      top[e] = _mm256_load_ps(o[e]);
      bottom[e] = _mm256_load_ps(o[8 + e]);
    }
    transpose8(top);
    transpose8(bottom);
    for (int l = 0; l < n; ++l) {
      const __m128 row[4] = {_mm256_castps256_ps128(top[l]), _mm256_extractf128_ps(top[l], 1),
                             _mm256_castps256_ps128(bottom[l]), _mm256_extractf128_ps(bottom[l], 1)};
      float* yt = y + off[l];
      const int c = cols_in[l];
      const __m128i mask = _mm_setr_epi32(c > 0 ? -1 : 0, c > 1 ? -1 : 0, c > 2 ? -1 : 0, c > 3 ? -1 : 0);
      for (int p = 0; p < rows_in[l]; ++p) {
        if (c == 4)
          _mm_storeu_ps(yt + p * out_w, row[p]);
        else
          _mm_maskstore_ps(yt + p * out_w, mask, row[p]);
      }
    }
    return true;
  }
}
#endif

void winograd_f4k3_output(const isa::winograd_output_args& a) {
  constexpr int L = lanes;
  const vec lo(a.min), hi(a.max);
  const std::int64_t plane = a.out_h * a.out_w;
  for (std::int64_t j0 = 0; j0 < a.tiles; j0 += L) {
    const int n = static_cast<int>(a.tiles - j0 < L ? a.tiles - j0 : L);
    std::int64_t off[L] = {};
    int rows_in[L] = {}, cols_in[L] = {};
    for (int l = 0; l < n; ++l) {
      const std::int64_t t = a.first_tile + j0 + l, img = t / a.tiles_per_image, r = t % a.tiles_per_image;
      const std::int64_t oy = (r / a.tiles_w) * 4, ox = (r % a.tiles_w) * 4;
      off[l] = img * a.image_stride + oy * a.out_w + ox;
      rows_in[l] = static_cast<int>(a.out_h - oy < 4 ? a.out_h - oy : 4);
      cols_in[l] = static_cast<int>(a.out_w - ox < 4 ? a.out_w - ox : 4);
    }
    for (std::int64_t r = 0; r < a.rows; ++r) {
      const float* mr = a.m + r * a.nb + j0;
      vec s[4][6];  // s[p][q] = (A^T M)[p][q]
      for (int q = 0; q < 6; ++q) {
        vec col[6], out[4];
        for (int k = 0; k < 6; ++k) col[k] = load_vec(mr + (k * 6 + q) * a.xi_stride);
        winograd_at6(col, out);
        for (int p = 0; p < 4; ++p) s[p][q] = out[p];
      }
      const vec bias(a.bias ? a.bias[r] : 0.0f);
      alignas(64) float o[16][L];
      for (int p = 0; p < 4; ++p) {
        vec out[4];
        winograd_at6(s[p], out);
        for (int q = 0; q < 4; ++q) {
          vec v = out[q] + bias;
          if (a.clamp) v = clamp_to(v, lo, hi);
          store_vec(o[p * 4 + q], v);
        }
      }
      float* yr = a.y + r * plane;
#if defined(__AVX512F__)
      if (winograd_output_x16<vec>(o, yr, off, rows_in, cols_in, n, a.out_w)) continue;
#endif
#if defined(__AVX2__)
      if (winograd_output_x8<vec>(o, yr, off, rows_in, cols_in, n, a.out_w)) continue;
#endif
      for (int l = 0; l < n; ++l)
        for (int p = 0; p < rows_in[l]; ++p)
          for (int q = 0; q < cols_in[l]; ++q) yr[off[l] + p * a.out_w + q] = o[p * 4 + q][l];
    }
  }
}

// Stores the first n (0 < n < lanes) lanes of v at p: one masked store on
// AVX-512 (a row tail through a copy and a libc memcpy cost ~30 cycles, as
// much as a 3x3 depthwise vector itself), a pair and a lane store on NEON,
// else lane by lane.
template <class V>
void store_first(float* p, V v, std::int64_t n) {
#if defined(__AVX512F__)
  if constexpr (lanes_of<V> == 16) {
    _mm512_mask_storeu_ps(p, static_cast<unsigned short>((1u << n) - 1u), v);
    return;
  }
#elif defined(__aarch64__)
  if constexpr (uses_neon) {
    const float32x4_t r = v;
    if (n == 1) {
      vst1q_lane_f32(p, r, 0);
    } else {
      vst1_f32(p, vget_low_f32(r));
      if (n == 3) vst1q_lane_f32(p + 2, r, 2);
    }
    return;
  }
#endif
  alignas(64) float t[lanes_of<V>];
  store_vec(t, v);
  for (std::int64_t i = 0; i < n; ++i) p[i] = t[i];
}

// The first n (0 < n < lanes) floats at p, the other lanes `fill`, reading
// nothing past p[n - 1]: one masked load on AVX-512 and AVX2, else through a
// small copy.
template <class V>
V load_first(const float* p, std::int64_t n, float fill) {
#if defined(__AVX512F__)
  if constexpr (lanes_of<V> == 16)
    return V(_mm512_mask_loadu_ps(_mm512_set1_ps(fill), static_cast<unsigned short>((1u << n) - 1u), p));
#elif defined(__AVX2__)
  if constexpr (lanes_of<V> == 8) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), lane);
    return V(_mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, mask), _mm256_castsi256_ps(mask)));
  }
#endif
  alignas(64) float t[lanes_of<V>];
  for (int i = 0; i < lanes_of<V>; ++i) t[i] = i < n ? p[i] : fill;
  return load_vec<V>(t);
}

// --- GEMM, a few columns (isa::f32_gemm_few_fn) -----------------------------
//
// Column j of the tile accumulates in RV vectors over the MR rows of the A
// panel, times b(k, j) broadcast; k in P interleaved sets (gemm_few_n), so
// that even one column keeps several FMA chains in flight. The epilogue is write_tile's,
// element by element (at most MR x gemm_few_n of them).
// Loads the MR floats of A's step at p as RV vectors (the last one masked).
template <int MR, int RV>
[[gnu::always_inline]] inline void load_a_step(const float* p, vec (&av)[RV]) {
  constexpr int tail = MR - (RV - 1) * lanes;  // rows in the last vector
#pragma GCC unroll 4
  for (int r = 0; r + 1 < RV; ++r) av[r] = load_vec(p + r * lanes);
  if constexpr (tail == lanes) av[RV - 1] = load_vec(p + (RV - 1) * lanes);
  else av[RV - 1] = load_first<vec>(p + (RV - 1) * lanes, tail, 0.0f);
}

template <int MR, int N>
void gemm_few_n(std::int64_t kc, const float* a, const float* b, std::int64_t b_k, std::int64_t b_j, float (*t)[MR]) {
  constexpr int RV = (MR + lanes - 1) / lanes;
  // Steps k mod P add into set k mod P: P chains a column, 8 or more in all
  // where the columns allow (one column on two chains was bound by the FMA
  // latency: ResNet-50's 7x7 maps' 49th column cost 6 of the full tile's).
  constexpr int P = N * RV <= 2 ? 4 : 2;
  vec acc[P][N][RV];
#pragma GCC unroll 4
  for (int q = 0; q < P; ++q)
#pragma GCC unroll 4
    for (int j = 0; j < N; ++j)
#pragma GCC unroll 4
      for (int r = 0; r < RV; ++r) acc[q][j][r] = vec(0.0f);
  // A's step in whole vectors, reading into the next step's floats (lanes
  // past MR are never used); the panel's last step masked, so nothing past
  // the panel is read.
  const auto step = [&](int q, const float* ak, const float* bk, bool last) {
    vec av[RV];
    if (last) {
      load_a_step<MR>(ak, av);
    } else {
#pragma GCC unroll 4
      for (int r = 0; r < RV; ++r) av[r] = load_vec(ak + r * lanes);
    }
#pragma GCC unroll 4
    for (int j = 0; j < N; ++j) {
      const vec bq(bk[j * b_j]);
#pragma GCC unroll 4
      for (int r = 0; r < RV; ++r) acc[q][j][r] = fmadd(av[r], bq, acc[q][j][r]);
    }
  };
  std::int64_t k = 0;
  for (; k + P < kc; k += P, a += P * MR, b += P * b_k)
#pragma GCC unroll 4
    for (int q = 0; q < P; ++q) step(q, a + q * MR, b + q * b_k, false);
  for (int q = 0; k < kc; ++k, ++q, a += MR, b += b_k) step(q, a, b, k + 1 == kc);  // the last 1..P steps
  alignas(64) float col[N][RV * lanes];
#pragma GCC unroll 4
  for (int j = 0; j < N; ++j)
#pragma GCC unroll 4
    for (int r = 0; r < RV; ++r) {
      vec sum = acc[0][j][r];
#pragma GCC unroll 4
      for (int q = 1; q < P; ++q) sum = sum + acc[q][j][r];
      store_vec(col[j] + r * lanes, sum);
    }
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < MR; ++i) t[j][i] = col[j][i];
}

template <int MR>
void gemm_few(std::int64_t kc, const float* a, const float* b, std::int64_t b_k, std::int64_t b_j, float* c,
              std::int64_t ldc, int m, int n, const isa::f32_gemm_params& p) {
  float t[isa::gemm_few_n][MR];
  switch (n) {
    case 1: gemm_few_n<MR, 1>(kc, a, b, b_k, b_j, t); break;
    case 2: gemm_few_n<MR, 2>(kc, a, b, b_k, b_j, t); break;
    case 3: gemm_few_n<MR, 3>(kc, a, b, b_k, b_j, t); break;
    case 4: gemm_few_n<MR, 4>(kc, a, b, b_k, b_j, t); break;
    default: return;
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float* cij = c + i * ldc + j;
      float r = p.alpha != 1.0f ? t[j][i] * p.alpha : t[j][i];
      if (p.beta != 0.0f) r = std::fma(p.beta, *cij, r);
      if (p.row_bias) r += p.row_bias[i];
      if (p.col_bias) r += p.col_bias[j];
      if (p.clamp) r = r > p.min ? (r < p.max ? r : p.max) : p.min;
      *cij = r;
    }
}

// --- one row times a matrix (isa::f32_gemv_fn, f32_dot_rows_fn) -------------
//
// Memory-bound: the point is to read B once, in the order it is stored, at
// the bandwidth of one core. Up to four vectors of y stay in registers for
// all of K (a packed panel, or a narrow slice of B); wider y stays in L1 and
// takes four rows of B per pass, so it is loaded and stored once per four
// rows. Both add a[k] * b[k][j] into y[j] one k after another, so a column
// gets the same bits either way.

// y[0, n) for n in ((NV - 1) * lanes, NV * lanes], held in NV registers.
template <int NV>
void gemv_in_registers(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y,
                       bool accumulate) {
  const std::int64_t tail = n - (NV - 1) * lanes;  // floats in the last vector, 1..lanes
  vec acc[NV];
  for (int v = 0; v < NV; ++v)
    acc[v] = !accumulate ? vec(0.0f) : v + 1 < NV || tail == lanes ? load_vec(y + v * lanes)
                                                                    : load_first<vec>(y + v * lanes, tail, 0.0f);
  for (std::int64_t k = 0; k < K; ++k) {
    const vec ak(a[k]);
    const float* row = b + k * ldb;
    for (int v = 0; v + 1 < NV; ++v) acc[v] = fmadd(ak, load_vec(row + v * lanes), acc[v]);
    const float* last = row + (NV - 1) * lanes;
    acc[NV - 1] = fmadd(ak, tail == lanes ? load_vec(last) : load_first<vec>(last, tail, 0.0f), acc[NV - 1]);
  }
  for (int v = 0; v + 1 < NV; ++v) store_vec(y + v * lanes, acc[v]);
  if (tail == lanes) store_vec(y + (NV - 1) * lanes, acc[NV - 1]);
  else store_first(y + (NV - 1) * lanes, acc[NV - 1], tail);
}

// Adds rows [k0, k0 + R) of B, times a, into the first n floats of y (in L1).
template <int R>
void gemv_rows_into(const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y) {
  vec ak[R];
  for (int r = 0; r < R; ++r) ak[r] = vec(a[r]);
  std::int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    vec acc = load_vec(y + j);
    for (int r = 0; r < R; ++r) acc = fmadd(ak[r], load_vec(b + r * ldb + j), acc);
    store_vec(y + j, acc);
  }
  if (j < n) {
    vec acc = load_first<vec>(y + j, n - j, 0.0f);
    for (int r = 0; r < R; ++r) acc = fmadd(ak[r], load_first<vec>(b + r * ldb + j, n - j, 0.0f), acc);
    store_first(y + j, acc, n - j);
  }
}

void gemv(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y,
          bool accumulate) {
  if (n <= 0) return;
  switch ((n + lanes - 1) / lanes) {
    case 1: return gemv_in_registers<1>(K, a, b, ldb, n, y, accumulate);
    case 2: return gemv_in_registers<2>(K, a, b, ldb, n, y, accumulate);
    case 3: return gemv_in_registers<3>(K, a, b, ldb, n, y, accumulate);
    case 4: return gemv_in_registers<4>(K, a, b, ldb, n, y, accumulate);
    default: break;
  }
  if (!accumulate) std::memset(y, 0, static_cast<std::size_t>(n) * sizeof(float));
  std::int64_t k = 0;
  for (; k + 4 <= K; k += 4) gemv_rows_into<4>(a + k, b + k * ldb, ldb, n, y);
  for (; k < K; ++k) gemv_rows_into<1>(a + k, b + k * ldb, ldb, n, y);
}

// P panels of NV vectors side by side (isa::f32_gemv_panels_fn), n columns
// from the first; each column one chain of FMAs in k order, as gemv's.
template <int NV, int P>
void gemv_panel_group(std::int64_t kc, const float* a, const float* b, std::int64_t panel_stride, std::int64_t n,
                      float* y, bool accumulate) {
  constexpr int NR = NV * lanes;
  // Floats of vector v of panel p that are columns (0 past n, lanes within).
  const auto valid = [n](int p, int v) {
    return std::clamp<std::int64_t>(n - p * NR - v * lanes, 0, lanes);
  };
  vec acc[P][NV];
  for (int p = 0; p < P; ++p)
    for (int v = 0; v < NV; ++v) {
      const std::int64_t c = valid(p, v);
      acc[p][v] = !accumulate || c == 0 ? vec(0.0f)
                  : c == lanes          ? load_vec(y + p * NR + v * lanes)
                                        : load_first<vec>(y + p * NR + v * lanes, c, 0.0f);
    }
  const float* rows[P];
  for (int p = 0; p < P; ++p) rows[p] = b + p * panel_stride;
  for (std::int64_t k = 0; k < kc; ++k) {
    const vec ak(a[k]);
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[p][v] = fmadd(ak, load_vec(rows[p] + k * NR + v * lanes), acc[p][v]);
  }
  for (int p = 0; p < P; ++p)
    for (int v = 0; v < NV; ++v) {
      const std::int64_t c = valid(p, v);
      if (c == lanes) store_vec(y + p * NR + v * lanes, acc[p][v]);
      else if (c > 0) store_first(y + p * NR + v * lanes, acc[p][v], c);
    }
}

template <int NV>
void gemv_panels(std::int64_t kc, const float* a, const float* b, std::int64_t panel_stride, std::int64_t n, float* y,
                 bool accumulate) {
  constexpr std::int64_t NR = NV * lanes;
  for (; n > 3 * NR; n -= 4 * NR, b += 4 * panel_stride, y += 4 * NR)
    gemv_panel_group<NV, 4>(kc, a, b, panel_stride, std::min(n, 4 * NR), y, accumulate);
  if (n > 2 * NR) gemv_panel_group<NV, 3>(kc, a, b, panel_stride, n, y, accumulate);
  else if (n > NR) gemv_panel_group<NV, 2>(kc, a, b, panel_stride, n, y, accumulate);
  else if (n > 0) gemv_panel_group<NV, 1>(kc, a, b, panel_stride, n, y, accumulate);
}

// R dot products of a with rows b, b + ldb, ...: one vector of partial sums
// per row over K, then reduced.
template <int R>
void dot_rows_of(std::int64_t K, const float* a, const float* b, std::int64_t ldb, float* y) {
  vec acc[R];
  for (int r = 0; r < R; ++r) acc[r] = vec(0.0f);
  std::int64_t k = 0;
  for (; k + lanes <= K; k += lanes) {
    const vec ak = load_vec(a + k);
    for (int r = 0; r < R; ++r) acc[r] = fmadd(ak, load_vec(b + r * ldb + k), acc[r]);
  }
  if (k < K) {
    const vec ak = load_first<vec>(a + k, K - k, 0.0f);
    for (int r = 0; r < R; ++r) acc[r] = fmadd(ak, load_first<vec>(b + r * ldb + k, K - k, 0.0f), acc[r]);
  }
  for (int r = 0; r < R; ++r) y[r] = reduce_add(acc[r]);
}

void dot_rows(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n, float* y) {
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4) dot_rows_of<4>(K, a, b + j * ldb, ldb, y + j);
  for (; j < n; ++j) dot_rows_of<1>(K, a, b + j * ldb, ldb, y + j);
}

// --- depthwise convolution, one channel -------------------------------------
//
// `lanes` outputs of a row at a time, all taps accumulated in registers and y
// written once. 3x3 and 5x5 on short rows take R output rows per pass
// (stride 1 or 2 along H, no dilation): each input row vector is loaded once
// for every output row it feeds, and the R accumulators are R independent
// FMA chains (one chain of 9 dependent FMAs per vector ran ShuffleNet's 14x14
// layers at ~7 GFLOP/s, latency-bound; on long rows the out-of-order core
// overlaps the chains of neighbouring vectors instead).
template <int KH, int KW, int SH, int R>
void dwconv_rows(const isa::dwconv_args& a, const vec* w, std::int64_t oh) {
  constexpr int in_rows = (R - 1) * SH + KH;
  const vec bias(a.bias), lo(a.min), hi(a.max);
  const float* in = a.plane + oh * SH * a.row_stride;
  float* y = a.y + oh * a.out_w;
  const std::int64_t rs = a.row_stride, ow = a.out_w;
  std::int64_t off[KW];
  for (int j = 0; j < KW; ++j) off[j] = a.tap_offset[j];
  // A row's last lanes are stored as a whole vector where that stays inside
  // the plane: what spills into the next rows is overwritten when they are
  // stored, after it (x runs right to left, rows top to bottom). Storing a
  // part through a copy made 14- and 28-wide rows 1.3-1.5x slower.
  const std::int64_t plane_end = a.out_h * ow;
  for (std::int64_t x = (ow - 1) / lanes * lanes; x >= 0; x -= lanes) {
    vec acc[R];
    for (int r = 0; r < R; ++r) acc[r] = bias;
#pragma GCC unroll 16
    for (int i = 0; i < in_rows; ++i) {
      const float* row = in + i * rs + x;
#pragma GCC unroll 5
      for (int j = 0; j < KW; ++j) {
        const vec v = load_vec(row + off[j]);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
          const int kh = i - r * SH;  // the kernel row that input row i is for output row r
          if (kh >= 0 && kh < KH) acc[r] = fmadd(w[kh * KW + j], v, acc[r]);
        }
      }
    }
    for (int r = 0; r < R; ++r) {
      const vec o = a.clamp ? clamp_to(acc[r], lo, hi) : acc[r];
      if ((oh + r) * ow + x + lanes <= plane_end)
        store_vec(y + r * ow + x, o);
      else
        store_first(y + r * ow + x, o, ow - x);
    }
  }
}

// Calls rows(std::integral_constant<int, R>, oh) over out_h output rows in
// blocks of R (R = 4 for 3x3, 2 for larger windows), the last 1-3 rows
// together too (a 7x7 map: 4 + 3).
template <int KH, int KW, class Rows>
void in_row_blocks(std::int64_t out_h, Rows rows) {
  constexpr int R = KH * KW > 9 ? 2 : 4;
  std::int64_t oh = 0;
  for (; oh + R <= out_h; oh += R) rows(std::integral_constant<int, R>{}, oh);
  switch (out_h - oh) {
    case 3: return rows(std::integral_constant<int, 3>{}, oh);
    case 2: return rows(std::integral_constant<int, 2>{}, oh);
    case 1: return rows(std::integral_constant<int, 1>{}, oh);
    default: return;
  }
}

template <int KH, int KW, int SH>
void dwconv_strided(const isa::dwconv_args& a, const vec* w) {
  in_row_blocks<KH, KW>(a.out_h, [&](auto r, std::int64_t oh) { dwconv_rows<KH, KW, SH, decltype(r)::value>(a, w, oh); });
}

template <int KH, int KW>
void dwconv_fixed(const isa::dwconv_args& a) {
  constexpr int kh = KH, kw = KW;
  vec w[kh * kw];
  for (int t = 0; t < kh * kw; ++t) w[t] = vec(a.w[t]);
  // Rows in blocks where rows are short (up to 6 vectors). On longer rows
  // the single-row loop below was faster, paired on Zen 3: 1.12x on
  // 160-wide rows, 1.04x on 80 (the blocks keep 6 input and 4 output rows
  // streaming at once), against 0.90x on 40 and 0.83x on 28.
  if (a.dilation_h == 1 && a.out_w <= 6 * lanes) {
    if (a.stride_h == 1) return dwconv_strided<KH, KW, 1>(a, w);
    if (a.stride_h == 2) return dwconv_strided<KH, KW, 2>(a, w);
  }
  std::int64_t off[kh * kw];
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j) off[i * kw + j] = i * a.dilation_h * a.row_stride + a.tap_offset[j];
  const vec bias(a.bias), lo(a.min), hi(a.max);
  for (std::int64_t oh = 0; oh < a.out_h; ++oh) {
    const float* in = a.plane + oh * a.stride_h * a.row_stride;
    float* y = a.y + oh * a.out_w;
    for (std::int64_t x = 0; x < a.out_w; x += lanes) {
      vec acc = bias;
#pragma GCC unroll 25
      for (int t = 0; t < kh * kw; ++t) acc = fmadd(w[t], load_vec(in + off[t] + x), acc);
      if (a.clamp) acc = clamp_to(acc, lo, hi);
      if (x + lanes <= a.out_w)
        store_vec(y + x, acc);
      else
        store_first(y + x, acc, a.out_w - x);
    }
  }
}

#if defined(__AVX2__) && !defined(__AVX512F__)
// Stride 2 along W on an unsplit row (isa::table::f32_dwconv_w2): 16 floats
// from 2x give tap 0 (the even ones) and tap 1 (the odd ones) of outputs
// x..x+7, 16 from 2x + 2 taps 2 and 3, and so on, each by one in-lane
// vshufps. Its lanes come out in the order 0 1 4 5 2 3 6 7 for every tap, so
// the sums run in that order and one vpermpd puts them back before the
// store. The sums are those of dwconv_rows, tap by tap in the same order.
// V is vec, a parameter so that a scalar TU built with AVX2 flags (single_tu.hpp)
// compiles this without instantiating it.
template <int KH, int KW, int SH, int R, class V = vec>
void dwconv_rows_w2(const isa::dwconv_args& a, const __m256* w, std::int64_t oh) {
  constexpr int in_rows = (R - 1) * SH + KH;
  const __m256 bias = _mm256_set1_ps(a.bias);
  const V lo(a.min), hi(a.max);
  const float* in = a.plane + oh * SH * a.row_stride;
  float* y = a.y + oh * a.out_w;
  const std::int64_t rs = a.row_stride, ow = a.out_w, plane_end = a.out_h * ow;
  for (std::int64_t x = (ow - 1) / lanes * lanes; x >= 0; x -= lanes) {
    __m256 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = bias;
#pragma GCC unroll 16
    for (int i = 0; i < in_rows; ++i) {
      const float* row = in + i * rs + 2 * x;
#pragma GCC unroll 3
      for (int j = 0; j < KW; j += 2) {
        const __m256 l = _mm256_loadu_ps(row + j), h = _mm256_loadu_ps(row + j + 8);
        const __m256 even = _mm256_shuffle_ps(l, h, _MM_SHUFFLE(2, 0, 2, 0));
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
          const int kh = i - r * SH;
          if (kh >= 0 && kh < KH) acc[r] = _mm256_fmadd_ps(w[kh * KW + j], even, acc[r]);
        }
        if (j + 1 < KW) {
          const __m256 odd = _mm256_shuffle_ps(l, h, _MM_SHUFFLE(3, 1, 3, 1));
#pragma GCC unroll 8
          for (int r = 0; r < R; ++r) {
            const int kh = i - r * SH;
            if (kh >= 0 && kh < KH) acc[r] = _mm256_fmadd_ps(w[kh * KW + j + 1], odd, acc[r]);
          }
        }
      }
    }
    for (int r = 0; r < R; ++r) {
      V o(_mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(acc[r]), _MM_SHUFFLE(3, 1, 2, 0))));
      if (a.clamp) o = clamp_to(o, lo, hi);
      if ((oh + r) * ow + x + lanes <= plane_end)  // as in dwconv_rows
        store_vec(y + r * ow + x, o);
      else
        store_first(y + r * ow + x, o, ow - x);
    }
  }
}

template <int KH, int KW, int SH, class V>
void dwconv_w2_rows(const isa::dwconv_args& a) {
  __m256 w[KH * KW];
  for (int t = 0; t < KH * KW; ++t) w[t] = _mm256_set1_ps(a.w[t]);
  in_row_blocks<KH, KW>(a.out_h,
                        [&](auto r, std::int64_t oh) { dwconv_rows_w2<KH, KW, SH, decltype(r)::value, V>(a, w, oh); });
}

template <class V = vec>
void dwconv_w2(const isa::dwconv_args& a) {
  const bool s1 = a.stride_h == 1;  // else 2 (conv.hpp asks for no other)
  if (a.kh == 3) return s1 ? dwconv_w2_rows<3, 3, 1, V>(a) : dwconv_w2_rows<3, 3, 2, V>(a);
  return s1 ? dwconv_w2_rows<5, 5, 1, V>(a) : dwconv_w2_rows<5, 5, 2, V>(a);
}

// Eight channels interleaved (isa::table::f32_dwconv_interleaved), group by
// group. Each row of each plane goes into buf 8 positions at a time through
// an 8x8 transpose (a masked load for a row's last positions, which may end
// the tensor). Output positions run in row-major order, 8 at a time, each an
// independent FMA chain over the taps (one chain of 9 FMAs per vector is
// latency-bound), from a table of each position's offset in buf made once
// per call (branch-free addressing); the 8 sums, one vector of channels per
// position, are transposed back to one vector of positions per channel and
// stored into the channels' planes (masked for the last few). The sums are
// those of dwconv_rows, tap by tap in the same order, from the bias.
template <int Taps, class V = vec>
void dwconv_interleaved_taps(const isa::dwconv_interleaved_args& a) {
  constexpr int L = 8;
  const std::int64_t taps = Taps ? Taps : a.kh * a.kw, pw = a.padded_w, P = a.out_h * a.out_w;
  if (P <= 0 || a.channels <= 0) return;
  float* const buf = a.buf;
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  std::int32_t at[isa::dwconv_interleaved_max_positions + L];
  for (std::int64_t oh = 0, p = 0; oh < a.out_h; ++oh)
    for (std::int64_t ox = 0; ox < a.out_w; ++ox, ++p)
      at[p] = static_cast<std::int32_t>((oh * a.stride_h * pw + ox * a.stride_w) * L);
  for (int q = 0; q < L; ++q) at[P + q] = at[P - 1];  // the last group's spare lanes read the last position
  std::int64_t off[isa::dwconv_interleaved_max_taps];
  for (std::int64_t i = 0, t = 0; i < a.kh; ++i)
    for (std::int64_t j = 0; j < a.kw; ++j, ++t) off[t] = (i * a.dilation_h * pw + j * a.dilation_w) * L;
  const __m256 lo = _mm256_set1_ps(a.min), hi = _mm256_set1_ps(a.max);
  const __m256i last = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(P % L)), iota);
  for (int c0 = 0; c0 < a.channels; c0 += L) {
    const int C = std::min(L, a.channels - c0);
    const float* const x = a.x + c0 * a.x_stride;
    float* const y = a.y + c0 * a.y_stride;
    for (std::int64_t iy = 0; iy < a.in_h; ++iy) {
      float* const row = buf + ((iy + a.pad_top) * pw + a.pad_left) * L;
      for (std::int64_t x0 = 0; x0 < a.in_w; x0 += L) {
        const int n = static_cast<int>(std::min<std::int64_t>(L, a.in_w - x0));
        const __m256i first = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), iota);
        __m256 r[8];
        for (int c = 0; c < L; ++c) {
          const float* src = x + c * a.x_stride + iy * a.in_w + x0;
          r[c] = c >= C ? _mm256_setzero_ps() : n == L ? _mm256_loadu_ps(src) : _mm256_maskload_ps(src, first);
        }
        transpose8(r);
        // All 8: a position past the row's end is zeros (masked lanes load
        // as zero), which lands in the padding or in the next row before
        // that row is written (the buffer has 8 positions of slack). Storing
        // n of them compiled to a rep movsq, a fifth of the kernel.
        for (int q = 0; q < L; ++q) _mm256_store_ps(row + (x0 + q) * L, r[q]);
      }
    }
    alignas(32) float wt[isa::dwconv_interleaved_max_taps * L];
    alignas(32) float bias[L];
    for (int c = 0; c < L; ++c) {
      for (std::int64_t t = 0; t < taps; ++t) wt[t * L + c] = c < C ? a.w[(c0 + c) * taps + t] : 0.0f;
      bias[c] = c < C && a.bias ? a.bias[c0 + c] : 0.0f;
    }
    const __m256 b = _mm256_load_ps(bias);
    for (std::int64_t p0 = 0; p0 < P; p0 += L) {
      const float* in[8];
      for (int q = 0; q < L; ++q) in[q] = buf + at[p0 + q];
      __m256 acc[8];
      for (int q = 0; q < L; ++q) acc[q] = b;
#pragma GCC unroll 25
      for (std::int64_t t = 0; t < taps; ++t) {
        const __m256 w = _mm256_load_ps(wt + t * L);
#pragma GCC unroll 8
        for (int q = 0; q < L; ++q) acc[q] = _mm256_fmadd_ps(w, _mm256_load_ps(in[q] + off[t]), acc[q]);
      }
      if (a.clamp)
        for (int q = 0; q < L; ++q) acc[q] = _mm256_min_ps(_mm256_max_ps(acc[q], lo), hi);
      transpose8(acc);
      if (p0 + L <= P) {
        for (int c = 0; c < C; ++c) _mm256_storeu_ps(y + c * a.y_stride + p0, acc[c]);
      } else {
        for (int c = 0; c < C; ++c) _mm256_maskstore_ps(y + c * a.y_stride + p0, last, acc[c]);
      }
    }
  }
}

template <class V = vec>
void dwconv_interleaved(const isa::dwconv_interleaved_args& a) {
  if (a.kh == 3 && a.kw == 3) return dwconv_interleaved_taps<9, V>(a);
  if (a.kh == 5 && a.kw == 5) return dwconv_interleaved_taps<25, V>(a);
  dwconv_interleaved_taps<0, V>(a);
}
#endif

void dwconv(const isa::dwconv_args& a) {
  if (a.kh == 3 && a.kw == 3) return dwconv_fixed<3, 3>(a);
  if (a.kh == 5 && a.kw == 5) return dwconv_fixed<5, 5>(a);
  const vec bias(a.bias), lo(a.min), hi(a.max);
  for (std::int64_t oh = 0; oh < a.out_h; ++oh) {
    const float* in = a.plane + oh * a.stride_h * a.row_stride;
    float* y = a.y + oh * a.out_w;
    for (std::int64_t x = 0; x < a.out_w; x += lanes) {
      vec acc = bias;
      for (std::int64_t i = 0; i < a.kh; ++i) {
        const float* r = in + i * a.dilation_h * a.row_stride + x;
        for (std::int64_t j = 0; j < a.kw; ++j) acc = fmadd(vec(a.w[i * a.kw + j]), load_vec(r + a.tap_offset[j]), acc);
      }
      if (a.clamp) acc = clamp_to(acc, lo, hi);
      if (x + lanes <= a.out_w)
        store_vec(y + x, acc);
      else
        store_first(y + x, acc, a.out_w - x);
    }
  }
}

// --- 2-D max / average pool, one channel ------------------------------------
//
// Per output row: the in-bounds input rows are reduced vertically into the
// padded row buffer (contiguous, whole vectors), then `lanes` outputs at a
// time reduce their kw taps along it. With stride 2 a tap's 16 inputs are
// the even elements of two vectors (one permute); other strides gather.
// Row tails are whole vectors wherever the spill stays inside the plane
// (partial loads and stores go through the stack on AVX2). Nothing is
// copied: the old path built a padded, phase-split copy of each plane first,
// which cost more than the pool itself (MaxPool 3x3/2 over 64x111x111 took
// 0.165 ms).

// p[0], p[s], ..., p[(lanes - 1) * s].
// (V is a template parameter so the intrinsic branches are only checked
// where they are taken.)
template <int S, class V = vec>
V load_strided(const float* p, std::int64_t s) {
  if constexpr (S == 1 || is_scalar) {
    return load_vec<V>(p);
  } else {
#if defined(__AVX512F__)
    if constexpr (S == 2 && lanes == 16) return V(evens(_mm512_loadu_ps(p), _mm512_loadu_ps(p + 16)));
#elif defined(__AVX2__)
    if constexpr (S == 2 && lanes == 8) return V(evens(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)));
#elif defined(__SSE2__)
    if constexpr (S == 2 && lanes == 4) return V(evens(_mm_loadu_ps(p), _mm_loadu_ps(p + 4)));
#endif
#if defined(__aarch64__)
    if constexpr (S == 2 && uses_neon) return V(vld2q_f32(p).val[0]);
#endif
    alignas(64) float g[lanes];
    for (int i = 0; i < lanes; ++i) g[i] = p[i * s];
    return load_vec<V>(g);
  }
}

template <bool Max>
vec pool_combine(vec acc, vec v) {
  if constexpr (Max) {
#if defined(__SSE2__)
    return xsimd::max(v, acc);  // one maxps; it returns acc when v is NaN, as the blend did
#else
    return where(v > acc, v, acc);
#endif
  } else {
    return acc + v;
  }
}

// One output row's vertical pass: n input rows `step` floats apart from x0
// reduced into image[0, W). A function of its own: inlined into pool_rows,
// GCC kept this loop's count and step on the stack (a store-to-load
// forward per tap).
template <bool Max>
[[gnu::noinline]] void pool_column(const float* x0, std::int64_t n, std::int64_t step, std::int64_t W,
                                   const float* plane_end, float* image) {
  const float init_s = Max ? -inf : 0.0f;
  const vec init(init_s);
  std::int64_t w = 0;
  for (; w + lanes <= W; w += lanes) {
    vec acc = init;
    const float* p = x0 + w;
    for (std::int64_t i = 0; i < n; ++i, p += step) acc = pool_combine<Max>(acc, load_vec(p));
    store_vec(image + w, acc);
  }
  if (w == W) return;
  vec acc = init;
  const float* p = x0 + w;
  if (n == 0 || p + (n - 1) * step + lanes <= plane_end) {
    // The tail as a whole vector (the next row's first floats ride along),
    // the buffer's right padding written again over what it spilled.
    for (std::int64_t i = 0; i < n; ++i, p += step) acc = pool_combine<Max>(acc, load_vec(p));
    store_vec(image + w, acc);
    store_vec(image + W, init);
  } else {
    for (std::int64_t i = 0; i < n; ++i, p += step) acc = pool_combine<Max>(acc, load_first<vec>(p, W - w, init_s));
    store_first(image + w, acc, W - w);
  }
}

template <bool Max, int S>
void pool_rows(const isa::pool_args& a) {
  const vec init(Max ? -inf : 0.0f);
  const std::int64_t W = a.width, step = a.dilation_h * W;
  const std::int64_t row_floats = isa::pool_row_floats(W, a.pad_left, a.out_w, a.kw, a.stride_w);
  const float* const plane_end = a.x + a.height * W;
  const float* const y_end = a.y + a.out_h * a.out_w;
  for (std::int64_t oh0 = 0; oh0 < a.out_h; oh0 += isa::pool_row_block) {
    const std::int64_t block = a.out_h - oh0 < isa::pool_row_block ? a.out_h - oh0 : isa::pool_row_block;
    for (std::int64_t r = 0; r < block; ++r) {  // vertical: block rows into their buffers
      const std::int64_t oh = oh0 + r, i0 = a.h_first[oh], i1 = a.h_end[oh];
      const float* x0 = i1 > i0 ? a.x + (oh * a.stride_h - a.pad_top + i0 * a.dilation_h) * W : a.x;
      pool_column<Max>(x0, i1 > i0 ? i1 - i0 : 0, step, W, plane_end, a.row + r * row_floats + a.pad_left);
    }
    for (std::int64_t r = 0; r < block; ++r) {  // horizontal: each buffer's windows
      const std::int64_t oh = oh0 + r;
      const vec hs(Max ? 1.0f : a.h_scale[oh]);
      const float* row = a.row + r * row_floats;
      float* y = a.y + oh * a.out_w;
      for (std::int64_t ox = 0; ox < a.out_w; ox += lanes) {
        const float* p = row + ox * (S > 0 ? S : a.stride_w);
        vec acc = init;
#pragma GCC unroll 8
        for (std::int64_t j = 0; j < a.kw; ++j) acc = pool_combine<Max>(acc, load_strided<S>(p + j, a.stride_w));
        if constexpr (!Max) acc = acc * hs * load_vec(a.w_scale + ox);
        // A row's last vector is stored whole where the spill stays inside
        // the plane: the rows after it, written later, overwrite it.
        if (ox + lanes <= a.out_w || y + ox + lanes <= y_end)
          store_vec(y + ox, acc);
        else
          store_first(y + ox, acc, a.out_w - ox);
      }
    }
  }
}

void pool(const isa::pool_args& a) {
  if (a.max) {
    if (a.stride_w == 1) return pool_rows<true, 1>(a);
    if (a.stride_w == 2) return pool_rows<true, 2>(a);
    return pool_rows<true, 0>(a);
  }
  if (a.stride_w == 1) return pool_rows<false, 1>(a);
  if (a.stride_w == 2) return pool_rows<false, 2>(a);
  return pool_rows<false, 0>(a);
}

}  // namespace
