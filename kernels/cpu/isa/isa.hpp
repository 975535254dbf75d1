// kernels/cpu/isa/isa.hpp: the per-ISA micro-kernels and their dispatch.
//
// The hot loops (GEMM tile, transcendentals, softmax) are written once as
// templates over xsimd::batch<float, Arch> in f32_kernels.ipp and compiled in
// one translation unit per level (f32_kernels_<isa>.cpp, each with its own
// -m flags, each in its own namespace isa::<level>). Baseline code reaches
// them only through the function pointers of a `table`, chosen once by CPUID,
// so no instruction above the baseline runs on a CPU that lacks it.
//
// The levels depend on the processor the build targets: x86-64 has scalar,
// sse, avx2 and avx512; aarch64 has scalar and neon (Advanced SIMD, always
// there on AArch64, so chosen without a check); others only scalar.
//
// ONYX_ISA=scalar|sse|avx2|avx512|neon in the environment lowers the selected
// level (never raises it above what the CPU has); tests use it to cover every path.
#pragma once

#include <cstdint>

namespace onyx::kernels::cpu::isa {

/// Ordered within one processor family: a level implies those before it.
enum class level { scalar, sse, avx2, avx512, neon };

/// The levels compiled for the target processor, lowest first.
#if defined(__x86_64__) || defined(__i386__)
inline constexpr level all_levels[] = {level::scalar, level::sse, level::avx2, level::avx512};
#elif defined(__aarch64__)
inline constexpr level all_levels[] = {level::scalar, level::neon};
#else
inline constexpr level all_levels[] = {level::scalar};
#endif

/// The highest level this CPU (and OS) supports: avx512 = F+DQ+BW+VL,
/// avx2 = AVX2+FMA, sse = SSE4.1; neon on every AArch64 CPU.
level detected();
/// min(detected(), ONYX_ISA if set to a level name); computed once.
level selected();
/// "scalar", "sse", "avx2", "avx512", "neon".
const char* name(level l);

/// What a GEMM micro-kernel applies when it writes its tile:
///   C = clamp(alpha * acc + beta * C + row_bias[i] + col_bias[j], min, max)
/// beta == 0 never reads C (it may hold NaN). Bias pointers are null or
/// already offset to the tile's first row/column; the clamp runs only if set.
struct f32_gemm_params {
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* row_bias = nullptr;
  const float* col_bias = nullptr;
  bool clamp = false;
  float min = 0.0f, max = 0.0f;
  /// f32_gemm only: the next B panel (kc rows of nr floats, packed), fetched
  /// a row per step while this tile runs, or null. The first tile of a
  /// prepacked panel streamed from memory (a transformer's weights) sets it
  /// so the next panel's first tile finds its rows in cache.
  const float* prefetch_b = nullptr;
};

/// One mr x nr tile of C from packed panels: `a` holds kc columns of mr floats
/// (a[p*mr + i]), `b` kc rows of nr floats (b[p*nr + j]); both zero-padded to
/// the full tile. Writes only the top-left m x n of the tile (m <= mr, n <= nr)
/// at c with row stride ldc.
using f32_gemm_fn = void (*)(std::int64_t kc, const float* a, const float* b, float* c,
                             std::int64_t ldc, int m, int n, const f32_gemm_params& params);
/// f32_gemm_fn for a tile whose B panel is not packed yet: row k of it is at
/// b + k*ldb (all nr columns real), and the tile writes the packed panel
/// (kc rows of nr floats) to b_packed as it goes.
using f32_gemm_packing_fn = void (*)(std::int64_t kc, const float* a, const float* b, std::int64_t ldb,
                                     float* b_packed, float* c, std::int64_t ldc, int m, int n,
                                     const f32_gemm_params& params);
/// An m x n tile of C (m <= mr, n <= gemm_few_n) from a packed A panel and
/// B read where it lies, b(k, j) at b[k * b_k + j * b_j]: for the last few
/// columns of a product, or all of them (a 1-D conv over four frames). The
/// rows of A are the vector lanes and each column of B is broadcast, where
/// the tile kernel would spend nr lanes on n columns. Same parameters as
/// f32_gemm_fn.
using f32_gemm_few_fn = void (*)(std::int64_t kc, const float* a, const float* b, std::int64_t b_k,
                                 std::int64_t b_j, float* c, std::int64_t ldc, int m, int n,
                                 const f32_gemm_params& params);
/// The most columns f32_gemm_few takes.
constexpr int gemm_few_n = 4;
/// dst[k] = src[k * stride] for k in [0, n): one phase of a strided row
/// (padded_plane.hpp); reads nothing past src[(n - 1) * stride].
using f32_strided_copy_fn = void (*)(const float* src, std::int64_t stride, std::int64_t n, float* dst);
/// One row times a matrix, B read as stored (a GEMV: memory-bound on B).
/// y[j] (+)= sum over k < K of a[k] * b[k * ldb + j], for j < n: K rows of n
/// floats, `ldb` apart (B in place, or one packed panel with ldb = its
/// width). Each y[j] is one chain of FMAs in k order from 0 (or from y[j]
/// when `accumulate`), so a column's value does not depend on n or on how a
/// caller cuts the columns. Reads nothing past column n of a row.
using f32_gemv_fn = void (*)(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n,
                             float* y, bool accumulate);
/// f32_gemv over packed panels (sgemm.hpp's packed_b, one K block): n columns
/// of consecutive panels of gemm_nr columns, kc rows of gemm_nr floats each,
/// panel p at b + p * panel_stride (the last one zero-padded past n). The same
/// sums as f32_gemv on each panel, but four panels are read side by side:
/// one stream from memory was the bottleneck (a 150 MB buffer on Zen 3, one
/// core, five runs: 7-11 GB/s as one stream, 11-17 as two to four).
using f32_gemv_panels_fn = void (*)(std::int64_t kc, const float* a, const float* b, std::int64_t panel_stride,
                                    std::int64_t n, float* y, bool accumulate);
/// y[j] = sum over k < K of a[k] * b[j * ldb + k], for j < n: n dot products
/// of a with rows of B (B stored N x K, Gemm's transB), each reduced the same
/// way whatever n is.
using f32_dot_rows_fn = void (*)(std::int64_t K, const float* a, const float* b, std::int64_t ldb, std::int64_t n,
                                 float* y);
/// Packs a K x W operand into panels of `width` (the GEMM's mr or nr): w in
/// [0, wn), k in [0, kn); panel q at dst + q * panel_stride holds element
/// (k, q*width + i) at [k*width + i], zero for columns past wn, so the
/// micro-kernel never needs a tail. (k, w) is src[k*ld + w] when
/// `w_contiguous`, else src[w*ld + k].
using f32_gemm_pack_fn = void (*)(const float* src, std::int64_t ld, bool w_contiguous, std::int64_t wn,
                                  std::int64_t kn, int width, float* dst, std::int64_t panel_stride);
/// Winograd F(4x4, 3x3) input transform of one block of up to `nb` 4x4 output
/// tiles (tiles counted over images, then rows, then columns): for each
/// channel c and tile j it reads the 6x6 input patch d at rows 4*ty - pad_top,
/// columns 4*tx - pad_left (zero outside the image, and for j >= tiles) and
/// writes V = B^T d B, element xi (0..35) of it at
///   v[xi * xi_stride + (j / panel) * channels * panel + c * panel + j % panel],
/// that is 36 matrices of channels x nb, each already in the packed-B panel
/// layout of the GEMM micro-kernel that will read it (panel = its width:
/// gemm_nr, or gemm_narrow_nr).
struct winograd_input_args {
  const float* x;  // image 0, channel 0
  std::int64_t channels, height, width;
  std::int64_t image_stride;  // floats from one image to the next
  std::int64_t pad_top, pad_left;
  std::int64_t tiles_w, tiles_per_image;  // tile grid of one image
  std::int64_t first_tile, tiles;         // this block: tiles [first, first + tiles), tiles <= nb
  std::int64_t nb;                        // block width, a multiple of panel
  std::int64_t panel;                     // gemm_nr or gemm_narrow_nr
  float* v;
  std::int64_t xi_stride;  // >= channels * nb
};
/// Winograd F(4x4, 3x3) output transform: for rows r < rows (output channels
/// m0 + r) and tiles j < tiles of the block, Y's 4x4 tile = A^T M A with M
/// element xi at m[xi * xi_stride + r * nb + j], plus bias[r] (if not null),
/// clamped to [min, max] when `clamp`; only the part inside the out_h x
/// out_w image is written.
struct winograd_output_args {
  const float* m;
  std::int64_t rows, nb, xi_stride;
  std::int64_t tiles_w, tiles_per_image, first_tile, tiles;
  float* y;  // image 0, channel m0
  std::int64_t out_h, out_w;
  std::int64_t image_stride;  // floats from one output image to the next
  const float* bias;          // rows floats, or null
  bool clamp;
  float min, max;
};
/// A window sliding over one channel's padded input plane (dilation 1 along
/// W; kernels/cpu/padded_plane.hpp lays the plane out): rows of row_stride
/// floats, row r at plane + r * row_stride, a padded row split by phase so
/// that padded column q sits at (q % stride_w) * phase_stride + q / stride_w
/// and tap j of output column x is at x + tap_offset[j]. Output row oh reads
/// rows oh * stride_h + i * dilation_h, i < kh. Rows may be read up to 16
/// floats past the last tap (the layout leaves that slack). The out_h x out_w
/// outputs are written at y.
struct plane_window {
  const float* plane;
  std::int64_t row_stride, stride_h, dilation_h;
  std::int64_t kh, kw;
  const std::int64_t* tap_offset;
  float* y;
  std::int64_t out_h, out_w;
};
/// One channel of a depthwise convolution:
///   y[oh, x] = clamp(bias + sum_{i < kh, j < kw} w[i * kw + j] * tap(i, j))
struct dwconv_args : plane_window {
  const float* w;
  float bias;
  bool clamp;
  float min, max;
};
using f32_dwconv_fn = void (*)(const dwconv_args&);
/// Channels of a 2-D depthwise convolution, `lanes` of them at a time
/// interleaved (isa::table::f32_dwconv_interleaved): a group's planes are
/// transposed into `buf` (padded_h x padded_w positions of `lanes` floats,
/// one per channel), each output position is its taps' FMAs on whole vectors
/// of channels, and the results are transposed back into the channels'
/// output planes. Small planes waste no lanes on row ends and pay no per-row
/// copy or per-channel call.
///   y[c][oh][ox] = clamp(bias[c] + sum_{i, j} w[c][i * kw + j] *
///                        xpad[c][oh * stride_h + i * dilation_h][ox * stride_w + j * dilation_w])
/// where xpad is x with pad_top rows and pad_left columns of zeros before it
/// and zeros past it up to padded_h x padded_w (which must hold every tap).
/// buf's padding must be zero on entry (fill it once per buffer); only the
/// image part is written.
struct dwconv_interleaved_args {
  const float* x;                // channel 0's in_h x in_w plane
  std::int64_t x_stride;         // floats from one channel's plane to the next
  std::int64_t in_h, in_w;
  int channels;                  // how many: groups of lanes, the last one of what is left
  std::int64_t kh, kw, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  std::int64_t padded_h, padded_w;
  std::int64_t out_h, out_w;
  const float* w;  // channel c's kh x kw taps at w + c * kh * kw
  const float* bias;  // channels floats, or null
  bool clamp;
  float min, max;
  float* y;                      // channel 0's out_h x out_w plane
  std::int64_t y_stride;
  float* buf;                    // (padded_h * padded_w + lanes) * lanes floats, 32-byte aligned
};
using f32_dwconv_interleaved_fn = void (*)(const dwconv_interleaved_args&);
/// The most taps (kh * kw) f32_dwconv_interleaved takes.
inline constexpr std::int64_t dwconv_interleaved_max_taps = 49;
/// The most output positions (out_h * out_w) it takes.
inline constexpr std::int64_t dwconv_interleaved_max_positions = 4096;
/// Floats past a row's extent that f32_dwconv_w2 may read (and ignore).
inline constexpr std::int64_t dwconv_w2_slack = 32;
/// One channel of a 2-D max or average pool (dilation 1 along W), read
/// straight from the input plane (height x width floats at x):
///   y[oh, ox] = max over the window's in-bounds taps, or
///               (sum over them) * h_scale[oh] * w_scale[ox]
/// Output row oh reads input rows oh * stride_h - pad_top + i * dilation_h
/// for i in [h_first[oh], h_end[oh]) (the in-bounds taps, from the plan);
/// they are reduced into a row buffer, whose image part starts at pad_left,
/// then output ox reduces buffer[ox * stride_w + j], j < kw. `row` holds
/// pool_row_block buffers of pool_row_floats() floats (buffer r at r *
/// pool_row_floats()), all set by the caller to the padding value (-inf for
/// max, 0 for average) before the first call; the kernel writes only their
/// image parts, pool_row_block output rows at a time (so a buffer is not
/// read back right after it is stored). Max skips NaN inputs (a NaN never
/// replaces the running maximum).
struct pool_args {
  const float* x;
  std::int64_t height, width;
  std::int64_t stride_h, dilation_h, pad_top;
  const std::int64_t* h_first;
  const std::int64_t* h_end;
  std::int64_t out_h, out_w;
  std::int64_t kw, stride_w, pad_left;
  float* row;
  bool max;
  const float* h_scale;  // out_h floats (average)
  const float* w_scale;  // out_w floats, with 16 floats of slack (average)
  float* y;
};
/// Output rows per pass of f32_pool, and so row buffers in pool_args::row.
constexpr std::int64_t pool_row_block = 8;
/// The floats of one row buffer: the image at pad_left, every window, and
/// slack for whole-vector reads (up to 2 x 16 floats past a window's
/// start), in whole cache lines.
constexpr std::int64_t pool_row_floats(std::int64_t width, std::int64_t pad_left, std::int64_t out_w,
                                       std::int64_t kw, std::int64_t stride_w) {
  const std::int64_t windows = (out_w + 15) / 16 * 16 * stride_w + kw;
  return ((pad_left + width > windows ? pad_left + width : windows) + 64 + 15) / 16 * 16;
}
using f32_pool_fn = void (*)(const pool_args&);
using f32_winograd_input_fn = void (*)(const winograd_input_args&);
using f32_winograd_output_fn = void (*)(const winograd_output_args&);

/// y[i] = f(x[i]) for i < n; y may equal x.
using f32_unary_fn = void (*)(const float* x, float* y, std::int64_t n);
/// The steps of onyx.fused.Elementwise that run through the table, each
/// exactly as its op's kernel computes it.
enum class f32_step : std::uint8_t { add, sub, mul, div, max, min, relu, clip, leaky_relu, hard_sigmoid, hard_swish, neg, abs };
/// y[i] = op(a[i], b[i]) for i < n, where a null `a` or `b` stands for the one
/// value `as` or `bs` (at most one of them null); the unary steps read a.
/// p and q: Clip's bounds, LeakyRelu's alpha (p), HardSigmoid's alpha and beta.
/// y may equal a or b.
using f32_step_fn = void (*)(f32_step op, const float* a, float as, const float* b, float bs, float p, float q,
                             float* y, std::int64_t n);
/// y[i] = min(max(x[i] * scale + shift, lo), hi) for i < n (a NaN stays NaN;
/// lo = -inf and hi = +inf clamp nothing); y may equal x. One channel plane
/// of BatchNormalization and of its fused clamp.
using f32_affine_fn = void (*)(const float* x, float scale, float shift, float lo, float hi, float* y, std::int64_t n);
/// onyx.fused.Elementwise's hardswish as ONNX exporters write it out, and
/// the affine step PP-LCNet puts after it: for i < n,
///   u = x[i] + c; u = Clip(u, lo, hi) (a NaN stays NaN); u = x[i] * u;
///   u = u / d; then, when `affine`, u = u * s; u = u + t; y[i] = u,
/// each operation rounded on its own exactly as its f32_step computes it, so
/// the result is bit for bit that of the steps, in registers instead of one
/// pass over an L1 buffer a step. y may equal x.
using f32_hard_swish_form_fn = void (*)(const float* x, float c, float lo, float hi, float d, bool affine, float s,
                                        float t, float* y, std::int64_t n);
/// LayerNorm of one contiguous row of n floats (n >= 1): mean and biased
/// variance in float with vector partial sums (two passes), then
/// y = (x - mean) * inv_std * scale[j] (+ bias[j] unless bias is null);
/// stats[0] = mean, stats[1] = inv_std = 1 / sqrt(var + eps).
/// Softmax of `rows` rows of n floats (x row r at x + r * ldx, y row r at
/// y + r * ldy; x == y allowed), each after adding bias row r (bias + r * ldb;
/// ldb 0: one row for all; bias null: none): t = x + b, y = exp(t - max t) /
/// sum. With inv_sums, y = exp(t - max t) unscaled and inv_sums[r] = 1 / sum.
/// n == 0 writes nothing.
using f32_softmax_rows_fn = void (*)(const float* x, std::int64_t ldx, float* y, std::int64_t ldy, std::int64_t rows,
                                     std::int64_t n, const float* bias, std::int64_t ldb, float* inv_sums);
/// LayerNorm of one row of n: y = (t - mean) / sqrt(var + eps) * scale (+ bias),
/// stats = {mean, 1 / sqrt(var + eps)}, t = x; or, with skip, t = (x + skip)
/// (+ add) computed in the first pass and stored to sum (which may be y):
/// SkipLayerNormalization's input and output 3 in one pass.
using f32_layer_norm_fn = void (*)(const float* x, const float* skip, const float* add, float* sum, float* y,
                                   std::int64_t n, const float* scale, const float* bias, float eps, float* stats);

/// The micro-kernels of one level. Names follow <dtype>_<op>__<isa>_<tile>;
/// `gemm_name` is the GEMM kernel's (e.g. "f32_gemm__avx512_12x32").
struct table {
  level isa;
  const char* gemm_name;
  int gemm_mr, gemm_nr;
  f32_gemm_fn f32_gemm;
  f32_gemm_packing_fn f32_gemm_packing;  // f32_gemm, packing its B panel on the way
  /// The same mr with a narrower width (half of gemm_nr on x86, 8 of 12 on
  /// neon; a multiple of the vector width), for products of few columns (a
  /// Winograd block of 16 tiles wastes half of a 32-wide tile).
  int gemm_narrow_nr;
  f32_gemm_fn f32_gemm_narrow;
  f32_gemm_pack_fn f32_gemm_pack;
  f32_gemm_few_fn f32_gemm_few;
  f32_gemv_fn f32_gemv;
  f32_gemv_panels_fn f32_gemv_panels;
  f32_dot_rows_fn f32_dot_rows;
  f32_unary_fn f32_exp;       // rel err < 1e-6 for normal results; gradual subnormals
  f32_unary_fn f32_logistic;  // 1 / (1 + exp(-x))
  f32_unary_fn f32_tanh;      // abs and rel err ~1e-6
  f32_unary_fn f32_erf;       // abs err < 1e-6
  f32_unary_fn f32_gelu;      // x/2 (1 + erf(x / sqrt 2)); in place allowed
  f32_unary_fn f32_gelu_tanh; // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); in place allowed
  f32_step_fn f32_step;  // onyx.fused.Elementwise's steps
  f32_affine_fn f32_affine;
  f32_hard_swish_form_fn f32_hard_swish_form;
  f32_layer_norm_fn f32_layer_norm_row;
  f32_softmax_rows_fn f32_softmax_rows;
  f32_dwconv_fn f32_dwconv;
  // As f32_dwconv for a 3x3 or 5x5 window 2 apart along W (stride 1 or 2
  // along H, dilation 1) over a plane laid out as for stride 1: output x's
  // tap j at plane column 2x + j, with at least dwconv_w2_slack floats
  // readable past each row's extent. The taps are split from the row in
  // registers instead of the row being copied into two phases. Null where a
  // level has none (conv.hpp then splits the plane by phase).
  f32_dwconv_fn f32_dwconv_w2;
  // Null where a level has none; dwconv_interleaved_lanes is its group size.
  f32_dwconv_interleaved_fn f32_dwconv_interleaved;
  int dwconv_interleaved_lanes;
  f32_pool_fn f32_pool;
  f32_strided_copy_fn f32_strided_copy;
  f32_winograd_input_fn f32_winograd_f4k3_input;
  f32_winograd_output_fn f32_winograd_f4k3_output;
};

/// The table for selected().
const table& active();
/// The table for `l`, or nullptr when the CPU lacks that level (or the build's
/// processor has no such level).
const table* find(level l);

}  // namespace onyx::kernels::cpu::isa
