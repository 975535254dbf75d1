// Baseline code: blocking, packing and threading of sgemm around the per-ISA
// micro-kernel (see sgemm.hpp for the algorithm).
#include "kernels/cpu/sgemm.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "kernels/cpu/isa/aligned.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu {
namespace {

using std::int64_t;

// Cache blocking: an MC x KC block of A (240 x KC floats) stays in L2 while
// the micro-kernel streams KC x nr micro-panels of B past it; NC bounds the
// packed slice of B. KC is gemm_kc(K) (sgemm.hpp): at most 1024, balanced.
// On Zen 4 (bench/gemm_bench, sgemm_packed, 1 thread, 32 KiB L1, 1 MiB L2)
// KC 128 / 256 / 384 / 512 / 768 gave cube_1024 89 / 89 / 94 / 100 / 99
// GFLOP/s, the ResNet-50 shapes rose with KC up to 512; on Zen 3 (512 KiB
// L2) fewer, deeper blocks won (sgemm.hpp). MC 120-480 made no difference
// beyond noise.
constexpr int64_t mc_target = 240;
constexpr int64_t nc_target = 1024;
// B slices up to this many floats (256 KiB) run A-panel-major (see run_block).
constexpr int64_t b_rows_in_l2 = 64 * 1024;

// A parallel chunk should carry at least this many flops (about 10 us at
// 100 GFLOP/s), or waking a worker costs more than it saves.
constexpr double min_flops_per_chunk = 1 << 20;

float* allocate_aligned(int64_t floats) {
  return static_cast<float*>(aligned_bytes(static_cast<std::size_t>(std::max<int64_t>(floats, 0)) * sizeof(float)));
}

// Grow-only per-thread packing buffer: no allocation once warm.
class scratch {
 public:
  float* get(int64_t floats) {
    if (floats > size_) {
      data_.reset(allocate_aligned(floats));
      size_ = floats;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<float[], detail::free_deleter> data_;
  int64_t size_ = 0;
};

// One operand as the packer sees it: element (k, w) of a K x W matrix, where
// w runs along the panels (rows of op(A), columns of op(B)).
struct operand {
  const float* data = nullptr;
  int64_t ld = 0;
  bool w_contiguous = false;  // (k, w) at data[k*ld + w], else data[w*ld + k]
  // Prepacked panels. Full-K: (k, w) at [(w / width) * K * width + k * width + w % width].
  // Blocked (pack_a, pack_b): by KC blocks of all panels, so the slices the
  // blocks of run_block read one after another are contiguous in memory
  // (one stream for the prefetchers): block pc of panel q at
  // [pc * panels * width + q * kc * width], kc that block's depth.
  const float* packed = nullptr;
  bool blocked = false;
  int64_t panels = 0;  // blocked: panels in all
};

// Packs w in [w0, w0 + wn) by k in [k0, k0 + kn) with the ISA's packer
// (isa::f32_gemm_pack_fn): panel q at dst + q * panel_stride.
void pack(const operand& x, int64_t w0, int64_t wn, int64_t k0, int64_t kn, int width, float* dst,
          int64_t panel_stride, const isa::table& kernels) {
  const float* src = x.w_contiguous ? x.data + k0 * x.ld + w0 : x.data + w0 * x.ld + k0;
  kernels.f32_gemm_pack(src, x.ld, x.w_contiguous, wn, kn, width, dst, panel_stride);
}

// Packs all W x K of `x` in the blocked layout (operand::blocked).
void pack_blocked(const operand& x, int64_t W, int64_t K, int width, int64_t panels, float* dst,
                  const isa::table& kernels) {
  int64_t pc = 0;
  do {
    const int64_t kc = std::min(gemm_kc(K), K - pc);
    pack(x, 0, W, pc, kc, width, dst + pc * panels * width, kc * width, kernels);
    pc += kc;
  } while (pc < K);
}

// A prepacked operand, in whichever layout it was packed.
operand prepacked(const detail::packed_panels& p, int64_t W, int width) {
  operand x;
  x.packed = p.data();
  x.blocked = p.blocked();
  x.panels = (W + width - 1) / width;
  return x;
}

struct problem {
  int64_t M, N, K;
  float alpha, beta;
  operand a, b;
  float* C;
  int64_t ldc;
  const gemm_epilogue* ep;
  const isa::table* kernels;
};

// The slice [k0, k0 + kn) of panels [w0, w0 + wn) of one operand: from the
// prepacked panels (full-K, so the slice starts k0 rows in) or packed now.
struct panels {
  const float* data;
  int64_t stride;  // floats from one panel to the next
};
panels slice(const operand& x, int64_t K, int64_t w0, int64_t wn, int64_t k0, int64_t kn, int width,
             scratch& buffer, const isa::table& kernels) {
  if (x.packed && x.blocked) return {x.packed + k0 * x.panels * width + (w0 / width) * kn * width, kn * width};
  if (x.packed) return {x.packed + (w0 / width) * K * width + k0 * width, K * width};
  const int64_t stride = kn * width;
  float* d = buffer.get((wn + width - 1) / width * stride);
  pack(x, w0, wn, k0, kn, width, d, stride, kernels);
  return {d, stride};
}

// C[m0, m1) x [n0, n1), with m0 and n0 on tile boundaries.
void run_block(const problem& g, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  thread_local scratch a_buffer, b_buffer;
  const int mr = g.kernels->gemm_mr, nr = g.kernels->gemm_nr;
  const int64_t mc_block = std::max<int64_t>(mc_target / mr, 1) * mr;
  // NC bounds the buffer B is packed into; prepacked B needs none, and one
  // column block packs each A block once (A is packed per column block:
  // BERT's 768 -> 3072 product packed its activations three times).
  const int64_t nc_block = g.b.packed ? std::max<int64_t>(n1 - n0, 1) : std::max<int64_t>(nc_target / nr, 1) * nr;
  const gemm_epilogue& ep = *g.ep;
  const float* row_bias = ep.kind == gemm_epilogue::bias_kind::per_row ? ep.bias : nullptr;
  const float* col_bias = ep.kind == gemm_epilogue::bias_kind::per_col ? ep.bias : nullptr;
  const bool clamp = ep.min > -INFINITY || ep.max < INFINITY;
  const isa::f32_unary_fn then = ep.then == gemm_epilogue::function::gelu        ? g.kernels->f32_gelu
                                 : ep.then == gemm_epilogue::function::gelu_tanh ? g.kernels->f32_gelu_tanh
                                                                                 : nullptr;

  for (int64_t jc = n0; jc < n1; jc += nc_block) {
    const int64_t nc = std::min(nc_block, n1 - jc);
    int64_t pc = 0;
    do {  // K == 0 still takes one pass: C = beta*C + bias
      const int64_t kc = std::min(gemm_kc(g.K), g.K - pc);
      const bool last = pc + kc >= g.K;
      // B not prepacked is packed panel by panel during the first MC block:
      // a whole panel of contiguous rows by its first tile (f32_gemm_packing,
      // the FMAs hiding the raw rows' latency), any other panel just before
      // its tiles, a last one of at most gemm_narrow_nr columns at that width
      // for the narrow kernel (196 columns: 6 x 32 + 4 wasted 28 of 224).
      const bool packs_b = !g.b.packed;
      float* const b_own = packs_b ? b_buffer.get((nc + nr - 1) / nr * kc * nr) : nullptr;
      const panels b = packs_b ? panels{b_own, kc * nr} : slice(g.b, g.K, jc, nc, pc, kc, nr, b_buffer, *g.kernels);
      for (int64_t ic = m0; ic < m1; ic += mc_block) {
        const int64_t mc = std::min(mc_block, m1 - ic);
        // Tile t computes rows [ir, ir + m) = rows_of(t) of the block from A's
        // panel t: mr rows each, but where the block ends a few rows past a
        // whole tile (mc % mr <= mr / 3) and A is packed here, its last
        // mr + mc % mr rows as two tiles of about half as many (6 + 2 -> 4 +
        // 4 on AVX2: BERT's 128 rows). A 2 x 16 tile reads as much B a step
        // as a 6 x 16 one for a third of the FMAs, and cost 0.6-0.7 of one
        // (0.30-0.35 a row, 0.17 on whole tiles). Any tile height sums a row
        // the same way, so prepacked A (whose panels stay mr rows) gives the
        // same bits.
        const int64_t tiles = (mc + mr - 1) / mr, rest = mc % mr;
        const bool split_last = !g.a.packed && rest > 0 && rest <= mr / 3 && tiles > 1;
        // The last two tiles start at row r, the first of them split_rows high.
        const int64_t r = (tiles - 2) * mr, split_rows = (mr + rest + 1) / 2;
        const auto rows_of = [&](int64_t t) -> std::pair<int64_t, int> {
          if (split_last && t >= tiles - 2)
            return t == tiles - 2 ? std::pair<int64_t, int>{r, static_cast<int>(split_rows)}
                                  : std::pair<int64_t, int>{r + split_rows, static_cast<int>(mr + rest - split_rows)};
          return {t * mr, static_cast<int>(std::min<int64_t>(mr, mc - t * mr))};
        };
        panels a;
        if (split_last) {
          const int64_t stride = kc * mr;
          float* d = a_buffer.get(tiles * stride);
          pack(g.a, ic, r, pc, kc, mr, d, stride, *g.kernels);
          pack(g.a, ic + r, split_rows, pc, kc, mr, d + (tiles - 2) * stride, stride, *g.kernels);
          pack(g.a, ic + r + split_rows, mr + rest - split_rows, pc, kc, mr, d + (tiles - 1) * stride, stride,
               *g.kernels);
          a = {d, stride};
        } else {
          a = slice(g.a, g.K, ic, mc, pc, kc, mr, a_buffer, *g.kernels);
        }
        isa::f32_gemm_params p;
        p.alpha = g.alpha;
        p.beta = pc == 0 && !ep.accumulate ? g.beta : 1.0f;
        p.clamp = last && clamp;
        p.min = ep.min;
        p.max = ep.max;
        // B beyond b_rows_in_l2 floats streams past the A block a panel at a
        // time (the loops at the end).
        const bool b_streams = nc * kc > b_rows_in_l2;
        // Tile t's rows by columns [jr, jr + n) of panel jr / nr (n < nr
        // only for the last columns). A panel not prepacked is packed by its
        // first tile (ic == m0, t == 0), which both orders below visit
        // before the panel's other tiles.
        const auto columns = [&](int64_t jr, int64_t t, int n) {
          const auto [ir, m] = rows_of(t);
          p.col_bias = last && col_bias ? col_bias + jc + jr : nullptr;
          p.row_bias = last && row_bias ? row_bias + ic + ir : nullptr;
          float* const c = g.C + (ic + ir) * g.ldc + jc + jr;
          const float* const a_panel = a.data + t * a.stride;
          const float* const b_panel = b.data + (jr / nr) * b.stride + jr % nr;
          // B not prepacked: this panel's (pc, jc + jr) corner in the raw operand.
          const float* const src =
              !packs_b ? nullptr
              : g.b.w_contiguous ? g.b.data + pc * g.b.ld + jc + jr
                                 : g.b.data + (jc + jr) * g.b.ld + pc;
          if (n <= isa::gemm_few_n) {
            // A last few columns, on the few-column kernel. Raw B's are first
            // copied to kc rows of n floats in the panel's place: read where
            // they lay, each step of each tile took a cache line of its own
            // (one of 49 columns, ResNet-50's 7x7 maps, cost as much as 8 on
            // the full tile; 4 of 196 as much as 12-20).
            if (packs_b) {
              // At column jr % nr of the panel's kc * nr floats: a narrow tile
              // before it in the same panel (tile below) packs the start.
              float* const few = b_own + (jr / nr) * b.stride + (jr % nr) * kc;
              if (ic == m0 && t == 0) {
                for (int64_t k = 0; k < kc; ++k)
                  for (int j = 0; j < n; ++j)
                    few[k * n + j] = g.b.w_contiguous ? src[k * g.b.ld + j] : src[j * g.b.ld + k];
              }
              g.kernels->f32_gemm_few(kc, a_panel, few, n, 1, c, g.ldc, m, n, p);
            } else {
              g.kernels->f32_gemm_few(kc, a_panel, b_panel, nr, 1, c, g.ldc, m, n, p);
            }
            if (last && then)
              for (int i = 0; i < m; ++i) then(c + i * g.ldc, c + i * g.ldc, n);
            return;
          }
          const bool narrow = packs_b && n < nr && n <= g.kernels->gemm_narrow_nr;
          const float* b_raw = nullptr;  // set while the panel's first tile still has to pack it
          if (packs_b && ic == m0 && t == 0) {
            if (g.b.w_contiguous && n == nr)
              b_raw = src;
            else
              g.kernels->f32_gemm_pack(src, g.b.ld, g.b.w_contiguous, n, kc, narrow ? g.kernels->gemm_narrow_nr : nr,
                                       b_own + (jr / nr) * b.stride, b.stride);
          }
          const isa::f32_gemm_fn gemm = narrow ? g.kernels->f32_gemm_narrow : g.kernels->f32_gemm;
          // Prepacked B streamed panel by panel (B-panel-outer order below):
          // the panel's first tile fetches the next panel.
          p.prefetch_b = !packs_b && b_streams && t == 0 && jr % nr == 0 && jr + nr < nc
                             ? b.data + (jr / nr + 1) * b.stride
                             : nullptr;
          if (b_raw)
            g.kernels->f32_gemm_packing(kc, a_panel, b_raw, g.b.ld, b_own + (jr / nr) * b.stride, c, g.ldc, m, n, p);
          else
            gemm(kc, a_panel, b_panel, c, g.ldc, m, n, p);
          if (last && then)
            for (int i = 0; i < m; ++i) then(c + i * g.ldc, c + i * g.ldc, n);
        };
        // A last panel a few columns wider than the narrow kernel runs as a
        // narrow tile and a few-column one: 7x7 maps (49 = 32 + 17 columns)
        // computed 64 columns with a whole tile for the last 17. B
        // prepacked splits the same way (its first part on the full-width
        // kernel, same sums), so either B gives the same bits.
        const int narrow_nr = g.kernels->gemm_narrow_nr;
        const auto tile = [&](int64_t jr, int64_t t) {
          const int n = static_cast<int>(std::min<int64_t>(nr, nc - jr));
          if (n < nr && n > narrow_nr && n - narrow_nr <= isa::gemm_few_n) {
            columns(jr, t, narrow_nr);
            columns(jr + narrow_nr, t, n - narrow_nr);
          } else {
            columns(jr, t, n);
          }
        };
        // A few columns (nc * kc floats of B within b_rows_in_l2): each A
        // micro-panel is used for all of them at once, so A, which then
        // carries most of the traffic (prepacked weights coming from memory
        // once per run), is read once at full use. Else B's micro-panel stays
        // put while the A block, in L2, streams past it.
        if (!b_streams) {
          for (int64_t t = 0; t < tiles; ++t)
            for (int64_t jr = 0; jr < nc; jr += nr) tile(jr, t);
        } else {
          for (int64_t jr = 0; jr < nc; jr += nr)
            for (int64_t t = 0; t < tiles; ++t) tile(jr, t);
        }
      }
      pc += kc;
    } while (pc < g.K);
  }
}

// Columns of one GEMV chunk: y (16 KiB) stays in L1 while rows of B pass.
constexpr int64_t row_chunk = 4096;

// C = epilogue(alpha * y + beta * C) for one row of n columns from j0: what
// the micro-kernel applies to its tile, in the same order (the clamp, like
// its clamp_to, turns NaN into min).
void finish_row(const problem& g, const float* y, int64_t j0, int64_t n) {
  const gemm_epilogue& ep = *g.ep;
  const float beta = ep.accumulate ? 1.0f : g.beta;
  const float row_bias = ep.kind == gemm_epilogue::bias_kind::per_row ? ep.bias[0] : 0.0f;
  const float* col_bias = ep.kind == gemm_epilogue::bias_kind::per_col ? ep.bias + j0 : nullptr;
  const bool clamp = ep.min > -INFINITY || ep.max < INFINITY;
  float* c = g.C + j0;
  for (int64_t j = 0; j < n; ++j) {
    float v = g.alpha * y[j];
    if (beta != 0.0f) v += beta * c[j];
    v += row_bias;
    if (col_bias) v += col_bias[j];
    if (clamp) v = v > ep.min ? (v < ep.max ? v : ep.max) : ep.min;
    c[j] = v;
  }
  if (ep.then == gemm_epilogue::function::gelu) g.kernels->f32_gelu(c, c, n);
  if (ep.then == gemm_epilogue::function::gelu_tanh) g.kernels->f32_gelu_tanh(c, c, n);
}

// M == 1 (a fully connected layer at batch 1, a decoder's step): a GEMV,
// bound by reading B, which the micro-kernel would read at a fraction of
// the bandwidth (mr rows of FMAs for every B vector, mr - 1 of them on
// padding). B is read as stored, in order: in place (rows of N, or rows of
// K when transposed) or prepacked (K blocks of nr-wide panels). Columns are
// split over the pool in chunks of whole panels; each column's sum runs in
// k order whatever the split, so any thread count gives the same bits.
// Measured on GPT-2's layers (768 x 2304 ... 3072 x 768, 1 thread, Zen 5):
// the tile path read B at 12.6 GB/s, this one at 36 (in place) to 42
// (panels). Panels are read four at a time (f32_gemv_panels), as the in-place
// kernels read four rows: one stream ran fc_25088_4096 (gemm_pairs, Zen 3) at
// 0.74-0.93 of oneDNN's speed, four side by side at 1.33-1.38.
void run_row(const problem& g, const thread_pool* pool) {
  thread_local scratch a_buffer;
  const float* a = g.a.data;
  if (g.a.w_contiguous && g.a.ld != 1) {  // op(A) = A^T: its one row is a column of A
    float* d = a_buffer.get(g.K);
    for (int64_t k = 0; k < g.K; ++k) d[k] = g.a.data[k * g.a.ld];
    a = d;
  }
  const int nr = g.kernels->gemm_nr;
  const operand& b = g.b;
  const int64_t unit = b.packed ? nr : 16;  // columns are cut in whole units
  const int64_t units = (g.N + unit - 1) / unit;
  const int64_t per_chunk = std::max<int64_t>(row_chunk / unit, 1);
  parallel_for(pool, units, grain_for(g.K * unit), [&](int64_t u0, int64_t u1) {
    thread_local scratch y_buffer;
    float* y = y_buffer.get(per_chunk * unit);
    for (int64_t u = u0; u < u1; u += per_chunk) {
      const int64_t j0 = u * unit, n = std::min(std::min(u1, u + per_chunk) * unit, g.N) - j0;
      if (b.packed) {
        // Panels q0.. of every K block; a full-K layout is one block of K.
        const int64_t q0 = j0 / nr, kc_max = b.blocked ? gemm_kc(g.K) : std::max<int64_t>(g.K, 1);
        for (int64_t pc = 0; pc < g.K; pc += kc_max) {
          const int64_t kc = std::min(kc_max, g.K - pc);
          const float* block = b.blocked ? b.packed + pc * b.panels * nr : b.packed + pc * nr;
          const int64_t panel_stride = b.blocked ? kc * nr : g.K * nr;
          g.kernels->f32_gemv_panels(kc, a + pc, block + q0 * panel_stride, panel_stride, n, y, pc > 0);
        }
        if (g.K == 0) std::fill(y, y + n, 0.0f);
      } else if (b.w_contiguous) {
        g.kernels->f32_gemv(g.K, a, b.data + j0, b.ld, n, y, false);
      } else {
        g.kernels->f32_dot_rows(g.K, a, b.data + j0 * b.ld, b.ld, n, y);
      }
      finish_row(g, y, j0, n);
    }
  });
}

// Splits C in whole tiles along its longer side (in tiles) over the pool.
void run(const problem& g, const thread_pool* pool) {
  if (g.M <= 0 || g.N <= 0) return;
  if (g.M == 1 && !g.a.packed) return run_row(g, pool);
  const int mr = g.kernels->gemm_mr, nr = g.kernels->gemm_nr;
  const int64_t m_tiles = (g.M + mr - 1) / mr, n_tiles = (g.N + nr - 1) / nr;
  if (!pool || pool->size() == 1) return run_block(g, 0, g.M, 0, g.N);

  const double k = static_cast<double>(std::max<int64_t>(g.K, 1));
  if (n_tiles >= m_tiles) {
    const double flops_per_tile = 2.0 * nr * static_cast<double>(g.M) * k;
    const auto min_chunk = static_cast<int64_t>(min_flops_per_chunk / flops_per_tile) + 1;
    pool->parallel_for(n_tiles, min_chunk, [&](int64_t begin, int64_t end) {
      run_block(g, 0, g.M, begin * nr, std::min(g.N, end * nr));
    });
  } else {
    const double flops_per_tile = 2.0 * mr * static_cast<double>(g.N) * k;
    const auto min_chunk = static_cast<int64_t>(min_flops_per_chunk / flops_per_tile) + 1;
    pool->parallel_for(m_tiles, min_chunk, [&](int64_t begin, int64_t end) {
      run_block(g, begin * mr, std::min(g.M, end * mr), 0, g.N);
    });
  }
}

// op(A) as panel source: w = row i of op(A); (k, i) is A[k*lda + i] when transposed.
operand a_operand(bool trans_a, const float* A, int64_t lda) { return {A, lda, trans_a, nullptr}; }
// op(B): w = column j of op(B); (k, j) is B[k*ldb + j] when not transposed.
operand b_operand(bool trans_b, const float* B, int64_t ldb) { return {B, ldb, !trans_b, nullptr}; }

}  // namespace

namespace detail {
packed_panels::packed_panels(int64_t rows, int64_t cols, int64_t panels, int64_t depth, int width,
                             isa::level level, bool blocked)
    : data_(allocate_aligned(panels * depth * width)), rows_(rows), cols_(cols), isa_(level), blocked_(blocked) {}
}  // namespace detail

packed_a pack_a(bool trans_a, int64_t M, int64_t K, const float* A, int64_t lda,
                const isa::table& kernels, bool full_k) {
  const int mr = kernels.gemm_mr;
  const int64_t panels = (M + mr - 1) / mr;
  packed_a out(M, K, panels, K, mr, kernels.isa, !full_k);
  if (full_k)
    pack(a_operand(trans_a, A, lda), 0, M, 0, K, mr, out.mutable_data(), K * mr, kernels);
  else
    pack_blocked(a_operand(trans_a, A, lda), M, K, mr, panels, out.mutable_data(), kernels);
  return out;
}

packed_a packed_a::full_k(int64_t M, int64_t K, const isa::table& kernels) {
  const int mr = kernels.gemm_mr;
  return packed_a(M, K, (M + mr - 1) / mr, K, mr, kernels.isa, false);
}

packed_b pack_b(bool trans_b, int64_t K, int64_t N, const float* B, int64_t ldb,
                const isa::table& kernels) {
  const int nr = kernels.gemm_nr;
  const int64_t panels = (N + nr - 1) / nr;
  packed_b out(K, N, panels, K, nr, kernels.isa, true);
  pack_blocked(b_operand(trans_b, B, ldb), N, K, nr, panels, out.mutable_data(), kernels);
  return out;
}

void sgemm(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
           int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
           const thread_pool* pool, const gemm_epilogue& ep, const isa::table& kernels) {
  run({M, N, K, alpha, beta, a_operand(trans_a, A, lda), b_operand(trans_b, B, ldb), C, ldc, &ep, &kernels},
      pool);
}

void sgemm_packed(bool trans_a, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                  int64_t lda, const packed_b& B, float beta, float* C, int64_t ldc,
                  const thread_pool* pool, const gemm_epilogue& ep, const isa::table& kernels) {
  assert(B.isa() == kernels.isa && B.rows() == K && B.cols() == N);
  run({M, N, K, alpha, beta, a_operand(trans_a, A, lda), prepacked(B, N, kernels.gemm_nr), C, ldc, &ep, &kernels},
      pool);
}

void sgemm_packed(bool trans_b, int64_t M, int64_t N, int64_t K, float alpha, const packed_a& A,
                  const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                  const thread_pool* pool, const gemm_epilogue& ep, const isa::table& kernels) {
  assert(A.isa() == kernels.isa && A.rows() == M && A.cols() == K);
  run({M, N, K, alpha, beta, prepacked(A, M, kernels.gemm_mr), b_operand(trans_b, B, ldb), C, ldc, &ep, &kernels},
      pool);
}

void sgemm_panels(int64_t M, int64_t N, int64_t K, const packed_a& A, const float* B, float* C, int64_t ldc,
                  const thread_pool* pool, const gemm_epilogue& ep, const isa::table& kernels) {
  assert(A.isa() == kernels.isa && A.rows() == M && A.cols() == K);
  operand a = prepacked(A, M, kernels.gemm_mr), b;
  b.packed = B;
  run({M, N, K, 1.0f, 0.0f, a, b, C, ldc, &ep, &kernels}, pool);
}

}  // namespace onyx::kernels::cpu
