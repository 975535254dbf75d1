// kernels/cpu/isa/q8.hpp: the 8-bit integer micro-kernels and their choice.
// Like the float ones (isa.hpp), each level's kernels live in their own TU
// (q8_kernels_<isa>.cpp, own flags, own namespace) and baseline code reaches
// them through one of these structs, chosen by CPUID (qgemm.cpp). Kept apart
// from isa.hpp so that only the integer ops include it.
#pragma once

#include <cstdint>

#include "kernels/cpu/isa/isa.hpp"

namespace onyx::kernels::cpu::isa {

/// 8-bit integer GEMM micro-kernel (kernels/cpu/qgemm.hpp drives it). Both
/// operands come packed in groups of `k_group` consecutive K steps, zero-padded
/// to the full tile and to whole groups:
///   a: group p, row i at a[(p * mr + i) * k_group], A' values in [0, 255]
///   b: group p, column j at b[(p * nr + j) * k_group], B' values in [-128, 127]
/// stored as `a_bytes` / `b_bytes` wide integers (1: uint8 / int8, 2: int16).
/// Writes sum_k A'[i][k] B'[k][j] in int32 (exact: products and pair sums fit,
/// the running sum wraps only past K = 65793) into the top-left m x n of the
/// tile at c (row stride ldc), added to what is there when `accumulate`.
/// Unless null, `prefetch` is a panel laid out like b that the caller reads
/// next: the kernel pulls it into cache line by line as it walks b (the
/// next B panel streams in from memory while this one is in use).
using q8_gemm_fn = void (*)(std::int64_t groups, const void* a, const void* b, std::int32_t* c, std::int64_t ldc,
                            int m, int n, bool accumulate, const void* prefetch);
/// lo = min(lo, x[i]), hi = max(hi, x[i]) over i < n (NaN ignored).
using f32_minmax_fn = void (*)(const float* x, std::int64_t n, float* lo, float* hi);
/// y[i] = clamp(round_half_even(x[i] / scale) + zero, 0, 255), in float with
/// a true division, as DynamicQuantizeLinear specifies (zero in [0, 255]).
using f32_quantize_u8_fn = void (*)(const float* x, std::int64_t n, float scale, float zero, std::uint8_t* y);
/// y[j] = clamp(round_half_even((a_j + bias_j) * scale_j + zero), 8-bit
/// range) in double, a_j = acc[j] + add0 (+ add[j] unless add is null) in
/// wrapping int32 arithmetic (the zero-point terms of q8_block), bias_j =
/// bias ? bias[j] : bias0 (scale likewise); int8 when is_signed, else uint8
/// (see q8_requantize.ipp).
using q8_requantize_fn = void (*)(const std::int32_t* acc, std::int64_t n, const std::int32_t* add, std::int32_t add0,
                                  const double* bias, double bias0, const double* scale, double scale0, double zero,
                                  bool is_signed, std::uint8_t* y);
/// One channel of a 2-D depthwise convolution over an int16 plane holding
/// x - x_zero_point with zero borders (plane_w columns per row, wide enough
/// for every tap): y[oh][ow] = sum w[ky][kx] plane[oh sh + ky dh][ow sw + kx dw].
struct q8_depthwise_args {
  const std::int16_t* plane;
  std::int64_t plane_w;
  const std::int32_t* w;  // kh x kw taps, w - w_zero_point
  std::int64_t kh, kw, stride_h, stride_w, dilation_h, dilation_w;
  std::int32_t* y;
  std::int64_t out_h, out_w;
};
using q8_depthwise_fn = void (*)(const q8_depthwise_args&);
/// Four rows of n bytes into n 32-bit groups (byte t from row t, each xor
/// flip), adding each group's four values (unsigned or signed) to sums[i]:
/// the packing of a VNNI B panel from a row-major matrix.
using q8_interleave4_fn = void (*)(const std::uint8_t* r0, const std::uint8_t* r1, const std::uint8_t* r2,
                                   const std::uint8_t* r3, std::int64_t n, std::uint8_t flip, bool as_unsigned,
                                   std::uint32_t* dst, std::int32_t* sums);
/// A's packing for a kernel of 8 rows and 4-byte groups (VNNI): bytes
/// [0, 32 * blocks) of the 8 rows a + i * lda, each xor flip, into the panel
/// (group p of row i at dst[p * 8 + i]), with sums[i] = the sum of row i's
/// flipped bytes as unsigned values. Null where the level has none.
using q8_pack_a8_fn = void (*)(const std::uint8_t* a, std::int64_t lda, std::int64_t blocks, std::uint8_t flip,
                               std::uint32_t* dst, std::int32_t* sums);
/// A direct 2-D convolution step for kernels of 4-byte groups: the
/// mr x nr tile
///   c[i][j] = sum over taps t < taps, groups q < groups, k < 4 of
///             a[((t * groups + q) * mr + i) * 4 + k] * b[offsets[t] + q * b_stride + j * 4 + k]
/// with a the weights (A' in the GEMM's terms) and b the input (four
/// channels interleaved per position, so that nr consecutive output
/// positions read nr consecutive groups under every tap), one of them
/// signed (q8_gemm_kernel::conv_a_signed). Rows i >= m are not written; all
/// nr columns are.
using q8_conv_fn = void (*)(std::int64_t taps, const std::int64_t* offsets, std::int64_t groups, std::int64_t b_stride,
                            const void* a, const void* b, std::int32_t* c, std::int64_t ldc, int m);
/// The arithmetic of QLinearMul and QLinearAdd over a run of n outputs, in
/// the float32 order of ONNX Runtime's MLAS (each operation rounded on its
/// own, no fused multiply-add), then rounded half to even and saturated to
/// int8 (is_signed) or uint8. a_i = a[da ? i : 0] as an int8 / uint8 value,
/// b_i likewise:
///   mul: y_i = float((a_i - za)(b_i - zb)) * scale + zc
///   add: y_i = (c0 + [da] float(a_i) * ra) + [db] float(b_i) * rb
/// (add leaves out the term of an operand that is not dense: the caller folds
/// it into c0).
using q8_qmul_fn = void (*)(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, int za,
                            int zb, float scale, float zc, bool is_signed, std::uint8_t* y);
using q8_qadd_fn = void (*)(const std::uint8_t* a, const std::uint8_t* b, std::int64_t n, bool da, bool db, float c0,
                            float ra, float rb, bool is_signed, std::uint8_t* y);
/// y[j] = float(acc[j] + add0 + add[j]) * scale[j * step] (+ bias[j * step])
/// for j < n: the int32 sum wrapping like the accumulation (add may be
/// null), the product and the bias added rounded one after the other, as the
/// Cast -> Mul -> Add chain a DynamicQuantizeMatMul replaces does. step is 1
/// (a scale per column: a MatMul's output channels) or 0 (one scale and bias
/// for the row: a convolution's output channel).
using q8_dequantize_fn = void (*)(const std::int32_t* acc, std::int64_t n, const std::int32_t* add,
                                  std::int32_t add0, const float* scale, const float* bias, std::int64_t step,
                                  float* y);
/// Where q8_gemm_float_fn writes its tile, and the terms it applies:
///   y[i * ldy + j] = float(v) * scale[j] (+ bias[j]),
///   v = acc[i][j] (+ c[i * ldc + j] when accumulating) + row_add[i] + col_add[j]
/// (int32 wrapping; row_add, col_add and bias may be null), the product and
/// the bias rounded one after the other, as q8_dequantize_fn rounds them.
struct q8_float_tile {
  float* y;
  std::int64_t ldy;
  const std::int32_t* row_add;
  const std::int32_t* col_add;
  const float* scale;
  const float* bias;
};
/// q8_gemm_fn whose tile leaves as floats (q8_float_tile) instead of int32:
/// the last K slice of a DynamicQuantizeMatMul / MatMulIntegerToFloat, so
/// the accumulators never go to memory and back. c holds the earlier slices'
/// int32 sums when accumulate.
using q8_gemm_float_fn = void (*)(std::int64_t groups, const void* a, const void* b, const std::int32_t* c,
                                  std::int64_t ldc, int m, int n, bool accumulate, const void* prefetch,
                                  const q8_float_tile& out);
/// One K group of a B panel whose pairs a pair-bound kernel (below) cannot
/// take whole: what packing moved out of the panel's group `group` (16
/// columns of 4 bytes, a kernel of 4-byte groups and nr 16), with every
/// pair again within the bound.
struct q8_fix {
  std::int64_t group;
  alignas(32) std::int8_t b[64];
};
/// c[i][j] += sum over the fixes f, k < 4 of a[((f.group - p0) * mr + i) * 4 + k] * f.b[j * 4 + k]
/// for the top-left m x n of the tile at c (row stride ldc), a the A panel
/// from group p0 on: the fixes of one panel within one K slice.
using q8_fixup_fn = void (*)(const q8_fix* fixes, std::int64_t count, std::int64_t p0, const void* a,
                             std::int32_t* c, std::int64_t ldc, int m, int n);
/// One (tap, channel group) step of a direct-convolution weight panel whose
/// pairs a pair-bound conv kernel cannot take whole (q8_gemm_kernel::
/// conv_fixup): what packing moved out of that step of the panel, mr <= 8
/// rows of 4 signed bytes, every pair again within the bound.
struct q8_conv_fix {
  std::int64_t tap, group;
  std::int8_t a[32];  // row i at a[i * 4]
};
/// c[i][j] += sum over the fixes f, k < 4 of f.a[i * 4 + k] * b[offsets[f.tap] + f.group * b_stride + j * 4 + k]
/// for rows i < m and all nr columns of the tile at c (row stride ldc), b
/// read as q8_conv_fn reads it: the fixes of one weight panel.
using q8_conv_fixup_fn = void (*)(const q8_conv_fix* fixes, std::int64_t count, const std::int64_t* offsets,
                                  std::int64_t b_stride, const void* b, std::int32_t* c, std::int64_t ldc, int m);
/// One int8 GEMM kernel, with the activation quantizer of the same level.
/// Names follow u8s8_gemm__<isa>_<mr>x<nr>.
struct q8_gemm_kernel {
  const char* name;
  int mr, nr, k_group;
  int a_bytes, b_bytes;
  q8_gemm_fn gemm;
  f32_minmax_fn f32_minmax;
  f32_quantize_u8_fn f32_quantize_u8;
  q8_requantize_fn requantize;
  q8_depthwise_fn depthwise;
  q8_interleave4_fn interleave4;
  q8_pack_a8_fn pack_a8 = nullptr;
  q8_conv_fn conv = nullptr;  // null where the level has none
  q8_qmul_fn qmul = nullptr;  // null: the portable loops of qlinear_binary.hpp
  q8_qadd_fn qadd = nullptr;
  q8_dequantize_fn dequantize = nullptr;  // null: the portable loop of dynamic_quantize_gemm.hpp
  q8_gemm_float_fn gemm_float = nullptr;  // null: int32 blocks through the sink
  /// Set for a pair-bound kernel: one that adds the products of two
  /// adjacent K steps in int16 (vpmaddubsw), exact only where each pair of
  /// B' values has |b0| + |b1| <= 128 (255 * 128 fits int16). Packing B for
  /// it halves the pairs over that bound in the panel and keeps the other
  /// halves as the panel's fixes (q8_panels::fixes), which the GEMM adds
  /// with this after the kernel: exact for every input, fast where few
  /// pairs are over the bound (trained weights: a few in 10^4).
  q8_fixup_fn fixup = nullptr;
  /// A pair-bound kernel this one stands beside: worth it for constant
  /// weights with few fixes (q8_pack_weights), not for activations as B.
  const q8_gemm_kernel* for_weights = nullptr;
  /// How `conv` reads its operands: false (VNNI), a unsigned and b signed;
  /// true (avx2's vpmaddubsw, whose unsigned operand must be the input), a
  /// signed and b unsigned, and the kernel pair-bound on a: packing the
  /// weights moves the excess of their pairs over the bound into fixes,
  /// which conv_fixup adds after the tile.
  bool conv_a_signed = false;
  q8_conv_fixup_fn conv_fixup = nullptr;
};
/// y[i] = table[x[i]] for i < n: a byte table lookup (QLinearLookup and the
/// com.microsoft lookup ops).
using u8_lookup_fn = void (*)(const std::uint8_t* table, const std::uint8_t* x, std::uint8_t* y, std::int64_t n);
/// The lookup for selected(): AVX-512 VBMI (vpermi2b) at the avx512 level
/// where CPUID reports it, else a portable loop.
u8_lookup_fn u8_lookup();

/// The kernel for selected(): avx512 with AVX512-VNNI (vpdpbusd on zmm),
/// else at avx2 or above the AVX-VNNI one (vpdpbusd on ymm) where CPUID
/// reports AVX-VNNI, else the avx2 one (vpmaddwd on int16), else scalar.
const q8_gemm_kernel& q8_active();
/// Every int8 kernel this program holds and this CPU runs, lowest first
/// (count in *n), the pair-bound ones q8_active never picks included; tests
/// run each.
const q8_gemm_kernel* const* q8_available(int* n);

}  // namespace onyx::kernels::cpu::isa
