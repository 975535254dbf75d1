// kernels/cpu/winograd.hpp: 3x3 stride-1 convolutions by Winograd F(4x4, 3x3).
//
// Each 4x4 tile of output comes from a 6x6 patch of input; in the transformed
// domain the 3x3 convolution becomes 36 independent products, one per element
// xi of the 6x6 transform:
//   M[xi] (Cout x tiles) = U[xi] (Cout x Cin) * V[xi] (Cin x tiles)
// with U = G w G^T (the weights, transformed and packed once at prepare time:
// 36 * Cout * Cin floats, 4x the raw weights), V = B^T d B (the input
// patches) and Y = A^T M A. That is 36 multiply-adds per Cin x Cout pair per
// 16 outputs instead of 144: 4x fewer FLOPs, for two cheap transforms.
//
// Work: tiles (over images, then rows, then columns) are cut in blocks as
// wide as the micro-kernel (gemm_nr; a range's last block of at most
// gemm_narrow_nr tiles, gemm_narrow_nr: block_width), so V[xi] of a block is
// exactly one packed B panel and the GEMM runs the micro-kernel straight on
// it, with no packing). A 14x14 map has 16 tiles: half a 32-wide panel.
// For each block: the input transform writes V (36 x Cin x nb, per thread),
// then for each slice of `mblock` output channels, 36 micro-kernel passes
// write M (36 x mblock x nb, sized to stay in L2) and the output transform
// adds the bias, clamps and writes Y. Each thread takes an even range of
// tiles; where those ranges would be less than half a panel, each block runs
// in three phases split over the pool instead (make_plan).
//
// Accuracy: the points 0, +-1, +-2, inf keep the error near 1e-6 relative to
// the largest |w| * |x| sums; `winograd_gain` only picks this path for
// convolutions with at least 8 input channels, where the GEMM dominates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/cpu/isa/aligned.hpp"
#include "kernels/cpu/isa/isa.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/core/thread_pool.hpp"

namespace onyx::kernels::cpu::winograd {

using std::int64_t;

/// The transformed weights U[xi] = (G w G^T)[xi], xi = 0..35, each M x C,
/// packed in full-K panels for one ISA's micro-kernel: one packed block of 36
/// x Mp rows (Mp = M rounded up to whole panels, the padding rows zero), so
/// U[xi] starts at panel xi * Mp / mr. One block rather than 36 keeps its
/// pages huge (onyx/core/host_memory.hpp).
struct weights {
  packed_a panels;  // empty: none prepared
  int64_t M = 0, C = 0, Mp = 0;
  bool empty() const { return panels.empty(); }
  isa::level isa() const { return panels.isa(); }
  const float* at(int xi) const { return panels.data() + xi * Mp * C; }
};

/// U for w (M x C x 3 x 3), for the micro-kernel of `kernels`.
///
/// G's rows are (1/4, 0, 0), -(1, 1, 1)/6, (-1, 1, -1)/6, (1/24, 1/12, 1/6),
/// (1/24, -1/12, 1/6), (0, 0, 1). The weights are taken in chunks of 64
/// input channels, transposed to 9 rows of 64 so both products run along c
/// (vectorized by the compiler) into a 36 x 64 block in L1, which is then
/// copied to the 36 planes of U. (Storing straight into the 36 planes, M x C
/// floats apart, puts 36 streams on one cache set.) In float: the transformed
/// weights differ from a double evaluation by a few ulps, far inside the
/// Winograd error budget.
inline weights transform_weights(const float* w, int64_t M, int64_t C,
                                 const isa::table& kernels = isa::active()) {
  constexpr int64_t cb = 64;
  const int64_t mr = kernels.gemm_mr, Mp = (M + mr - 1) / mr * mr;
  // U goes straight into its full-K panels: U[xi] row m, channel c at panel
  // (xi Mp + m) / mr, step c, lane m % mr. Output channels a panel at a
  // time, so the 36 panels being written stay in cache; rows past M zero.
  weights out;
  out.panels = packed_a::full_k(36 * Mp, C, kernels);
  out.M = M;
  out.C = C;
  out.Mp = Mp;
  float* const u = out.panels.panel_data();
  const auto at = [&](int xi, int64_t m, int64_t c) { return u + ((xi * Mp + m) / mr * C + c) * mr + m % mr; };
  // r[0], r[step], ..., r[5 step] = G (a, b, d).
  const auto apply_g = [](float a, float b, float d, float* r, int64_t step) {
    r[0 * step] = a * 0.25f;
    r[1 * step] = (a + b + d) * (-1.0f / 6);
    r[2 * step] = (a - b + d) * (-1.0f / 6);
    r[3 * step] = a * (1.0f / 24) + b * (1.0f / 12) + d * (1.0f / 6);
    r[4 * step] = a * (1.0f / 24) - b * (1.0f / 12) + d * (1.0f / 6);
    r[5 * step] = d;
  };
  alignas(64) float t[9][cb] = {};  // a last, partial chunk computes on stale columns, never stored
  alignas(64) float col[3][6][cb];
  alignas(64) float ub[36][cb];
  for (int64_t m0 = 0; m0 < Mp; m0 += mr)
    for (int64_t c0 = 0; c0 < C; c0 += cb) {
      const int64_t n = std::min(cb, C - c0);
      for (int64_t m = m0; m < m0 + mr; ++m) {
        if (m >= M) {
          for (int xi = 0; xi < 36; ++xi)
            for (int64_t c = 0; c < n; ++c) *at(xi, m, c0 + c) = 0.0f;
          continue;
        }
        const float* g = w + (m * C + c0) * 9;
        for (int64_t c = 0; c < n; ++c)
          for (int j = 0; j < 9; ++j) t[j][c] = g[c * 9 + j];
        // G along the kernel's rows for each of its columns j, then along its columns.
        for (int j = 0; j < 3; ++j)
          for (int64_t c = 0; c < cb; ++c) apply_g(t[j][c], t[3 + j][c], t[6 + j][c], &col[j][0][c], cb);
        for (int k = 0; k < 6; ++k)
          for (int64_t c = 0; c < cb; ++c) apply_g(col[0][k][c], col[1][k][c], col[2][k][c], &ub[k * 6][c], cb);
        for (int xi = 0; xi < 36; ++xi) {
          float* d = at(xi, m, c0);
          for (int64_t c = 0; c < n; ++c) d[c * mr] = ub[xi][c];
        }
      }
    }
  return out;
}

/// The sizes of one Winograd convolution (2-D, 3x3, stride 1, dilation 1, one group).
struct shape {
  int64_t N, C, M, H, W, out_h, out_w, pad_top, pad_left;
};

/// The width of a block of `count` tiles (at most gemm_nr): the narrow
/// micro-kernel's where they fit in it (a range's last few tiles), else the
/// full one's. Blocks before a range's last are full. Running every block
/// narrow to pad fewer columns (as the whole range's width once was: a
/// 56x56 map's 196 tiles in 25 blocks of 8, not 12 of 16 and one of 4) left the
/// 6x8 tile's six accumulators short of the eight that keep AVX2's two FMA
/// pipes busy, and read the weights twice as often per FLOP.
inline int64_t block_width(int64_t count, const isa::table& kernels) {
  return count <= kernels.gemm_narrow_nr ? kernels.gemm_narrow_nr : kernels.gemm_nr;
}

/// GEMM columns computed for a range of `tiles` tiles: whole blocks, then
/// the last one at its width.
inline int64_t padded_columns(int64_t tiles, const isa::table& kernels) {
  const int64_t rest = tiles % kernels.gemm_nr;
  return tiles - rest + (rest ? block_width(rest, kernels) : 0);
}

/// Estimated speed-up over im2col + GEMM for this shape: GEMM work, counted
/// in whole micro-kernel columns, direct / Winograd, with the transforms
/// charged as extra columns. Below ~1.5 the transforms and the tile padding
/// eat the gain (measured on ResNet-50's and DenseNet-121's 7x7 and 14x14 maps).
inline double gain(const shape& s, const isa::table& kernels = isa::active()) {
  if (s.C < 8 || s.M < 8) return 0.0;
  const auto round_up = [](int64_t v, int64_t m) { return (v + m - 1) / m * m; };
  const int64_t P = s.out_h * s.out_w;
  const int64_t tiles = s.N * ((s.out_h + 3) / 4) * ((s.out_w + 3) / 4);
  const double direct = 9.0 * static_cast<double>(s.N * round_up(P, kernels.gemm_nr));
  // Each tile costs 36 columns of GEMM plus its two transforms, about as much
  // as 36 * (16 / M + 12 / C) more columns (a transform element is ~16 vector
  // operations per output channel and ~12 per input channel).
  const double per_tile = 36.0 * (1.0 + 16.0 / static_cast<double>(s.M) + 12.0 / static_cast<double>(s.C));
  const double wino = per_tile * static_cast<double>(padded_columns(tiles, kernels));
  return direct / wino;
}

/// The work split and scratch of one shape, fixed by `plan`.
struct plan {
  shape s{};
  int64_t tiles_w = 0, tiles_per_image = 0, tiles = 0;
  int64_t nb = 0, blocks = 0;  // the widest block; blocks of nb tiles over the whole map (phased)
  int64_t m_panels = 0;  // output channels in whole mr panels
  int64_t mblock = 0;    // output channels per slice of M (a multiple of mr, or all of them)
  bool phased = false;   // few tiles per thread: each block in three parallel phases
  int64_t slots = 1;     // scratch slots: threads, or fewer where there are fewer tiles
  int64_t v_elements = 0, m_elements = 0, slot_elements = 0;
};

inline plan make_plan(const shape& s, int64_t threads, const isa::table& kernels = isa::active()) {
  plan p;
  p.s = s;
  const int64_t mr = kernels.gemm_mr;
  p.tiles_w = (s.out_w + 3) / 4;
  p.tiles_per_image = p.tiles_w * ((s.out_h + 3) / 4);
  p.tiles = s.N * p.tiles_per_image;
  p.m_panels = (s.M + mr - 1) / mr;
  // Each thread takes an even range of tiles, in blocks of nb (so a 28x28
  // map's 49 tiles go 25 : 24 in blocks of 16, not 32 : 17 in blocks of 32),
  // and its range lies on the rows the producer's column split gave it.
  // Ranges of at most half a narrow panel (a 14x14 map's 16 tiles over two
  // threads, AVX-512) would each pad their GEMM to a whole panel, and ranges
  // that fall to the narrow kernel where all the tiles take the full one
  // (the same 16 tiles, AVX2: two blocks of 8 on the 6x8 kernel) run at a
  // fraction of its rate. Those run phased instead: the input transform split
  // over channels, the 36 products over the threads, the output transform
  // over output channels. ResNet-50's 256-channel 14x14 layer on AVX2 (Zen 3,
  // conv_bench, 2 threads): 1.50 ms split by tiles, slower than its 1.16-1.24
  // on one thread; 0.64-0.81 phased.
  const int64_t per_slot = (p.tiles + threads - 1) / std::max<int64_t>(threads, 1);
  p.phased = threads > 1 && (per_slot <= kernels.gemm_narrow_nr / 2 ||
                             block_width(per_slot, kernels) < block_width(p.tiles, kernels));
  p.slots = p.phased ? 1 : std::max<int64_t>(1, std::min(threads, p.tiles));
  p.nb = block_width(std::min<int64_t>(p.phased ? p.tiles : (p.tiles + p.slots - 1) / p.slots, kernels.gemm_nr),
                     kernels);
  p.blocks = (p.tiles + p.nb - 1) / p.nb;
  if (p.phased) {
    p.mblock = p.m_panels * mr;  // all of M: the products of one xi write all its rows
  } else {
    // M of one slice: 36 x mblock x nb floats, about 256 KiB, in whole mr panels.
    const int64_t rows = std::max<int64_t>(1, (int64_t{256} << 10) / (36 * p.nb * 4) / mr) * mr;
    p.mblock = std::min(rows, p.m_panels * mr);
  }
  p.v_elements = 36 * s.C * p.nb;
  p.m_elements = 36 * p.mblock * p.nb;
  // One cache line more between slots so two threads' buffers never share a set stride.
  p.slot_elements = (p.v_elements + p.m_elements + 15) / 16 * 16 + 16;
  return p;
}

/// Y = conv(X, w) + bias, clamped to [lo, hi]; `u` from transform_weights,
/// `scratch` holds p.slots * p.slot_elements floats.
inline void run(const plan& p, const weights& u, const float* x, const float* bias, float lo, float hi,
                float* y, float* scratch, const thread_pool* pool, const isa::table& kernels = isa::active()) {
  const shape& s = p.s;
  const int64_t mr = kernels.gemm_mr;
  const bool clamp = lo > -std::numeric_limits<float>::infinity() || hi < std::numeric_limits<float>::infinity();
  // The input transform of tiles [first, first + count) into v, a block nb
  // wide (V[xi] at v + xi * C * nb).
  const auto input_args = [&](int64_t first, int64_t count, int64_t nb, float* v) {
    isa::winograd_input_args in{};
    in.x = x;
    in.channels = s.C;
    in.height = s.H;
    in.width = s.W;
    in.image_stride = s.C * s.H * s.W;
    in.pad_top = s.pad_top;
    in.pad_left = s.pad_left;
    in.tiles_w = p.tiles_w;
    in.tiles_per_image = p.tiles_per_image;
    in.first_tile = first;
    in.tiles = count;
    in.nb = nb;
    in.panel = nb;
    in.v = v;
    in.xi_stride = s.C * nb;
    return in;
  };
  // M[xi]'s rows [m0, m0 + rows) = U[xi]'s rows times V[xi] (V at v, a
  // block nb wide: one panel of the kernel that width picks), into mx (row r
  // at mx + r * nb).
  const auto multiply = [&](int xi, const float* v, int64_t nb, float* mx, int64_t m0, int64_t rows) {
    const isa::f32_gemm_params params;
    const isa::f32_gemm_fn gemm = nb == kernels.gemm_nr ? kernels.f32_gemm : kernels.f32_gemm_narrow;
    const float* a = u.at(xi);
    const float* vb = v + xi * s.C * nb;
    for (int64_t i = 0; i < rows; i += mr)
      gemm(s.C, a + (m0 + i) * s.C, vb, mx + i * nb, nb, static_cast<int>(std::min<int64_t>(mr, rows - i)),
           static_cast<int>(nb), params);
  };
  // Y's output channels [m0, m0 + rows) of tiles [first, first + count) from
  // M: row r of M[xi] at m + xi * m_xi + r * nb.
  const auto output = [&](int64_t first, int64_t count, int64_t nb, const float* m, int64_t m_xi, int64_t m0,
                          int64_t rows) {
    isa::winograd_output_args out{};
    out.m = m;
    out.rows = rows;
    out.nb = nb;
    out.xi_stride = m_xi;
    out.tiles_w = p.tiles_w;
    out.tiles_per_image = p.tiles_per_image;
    out.first_tile = first;
    out.tiles = count;
    out.y = y + m0 * s.out_h * s.out_w;
    out.out_h = s.out_h;
    out.out_w = s.out_w;
    out.image_stride = s.M * s.out_h * s.out_w;
    out.bias = bias ? bias + m0 : nullptr;
    out.clamp = clamp;
    out.min = lo;
    out.max = hi;
    kernels.f32_winograd_f4k3_output(out);
  };
  // All output channels of those tiles from their V, a slice of mblock rows
  // at a time through M in m.
  const auto product = [&](int64_t first, int64_t count, int64_t nb, const float* v, float* m) {
    for (int64_t m0 = 0; m0 < s.M; m0 += p.mblock) {
      const int64_t rows = std::min(p.mblock, s.M - m0);
      for (int xi = 0; xi < 36; ++xi) multiply(xi, v, nb, m + xi * p.mblock * nb, m0, rows);
      output(first, count, nb, m, p.mblock * nb, m0, rows);
    }
  };
  if (p.phased) {
    // A few tiles over the threads: per block, the input transform split over
    // its channels, then the 36 products over the threads (each all of M for
    // its xi), then the output transform over output channels. Cutting M
    // instead left DenseNet's 32-channel growth layers (three panels) on one
    // thread at 14x14.
    float* v = scratch;
    float* m = scratch + p.v_elements;
    for (int64_t block = 0; block < p.blocks; ++block) {
      const int64_t first = block * p.nb, count = std::min(p.nb, p.tiles - first);
      const int64_t nb = block_width(count, kernels), m_xi = p.mblock * nb;
      parallel_for(pool, s.C, grain_for(36 * 16 * count), [&](int64_t c0, int64_t c1) {
        isa::winograd_input_args in = input_args(first, count, nb, v);
        // One panel per block: channel c of V starts at c * nb, so a range
        // of channels is X and V moved by c0 channels.
        in.x = x + c0 * s.H * s.W;
        in.channels = c1 - c0;
        in.v = v + c0 * nb;
        kernels.f32_winograd_f4k3_input(in);
      });
      parallel_for(pool, 36, 1, [&](int64_t b, int64_t e) {
        for (int64_t xi = b; xi < e; ++xi) multiply(static_cast<int>(xi), v, nb, m + xi * m_xi, 0, s.M);
      });
      parallel_for(pool, s.M, grain_for(36 * 8 * count), [&](int64_t r0, int64_t r1) {
        output(first, count, nb, m + r0 * nb, m_xi, r0, r1 - r0);
      });
    }
    return;
  }
  parallel_for(pool, p.slots, 1, [&](int64_t b, int64_t e) {
    for (int64_t slot = b; slot < e; ++slot) {
      float* v = scratch + slot * p.slot_elements;
      float* m = v + p.v_elements;
      const int64_t end = p.tiles * (slot + 1) / p.slots;
      for (int64_t first = p.tiles * slot / p.slots; first < end; first += p.nb) {
        const int64_t count = std::min(p.nb, end - first), nb = block_width(count, kernels);
        kernels.f32_winograd_f4k3_input(input_args(first, count, nb, v));
        product(first, count, nb, v, m);
      }
    }
  });
}

}  // namespace onyx::kernels::cpu::winograd
