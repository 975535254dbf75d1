// kernels/cpu/conv_direct.hpp: the direct path of f32 Conv (conv.hpp) for
// 2-D windows of one group that are neither 1x1-stride-1 (a plain GEMM) nor
// depthwise nor Winograd's: the 7x7 stride-2 stem of ResNet, its stride-2
// 3x3 and 1x1 layers, 5x5 and 1xN windows.
//
// im2col + GEMM writes every input value taps times into col and packs it;
// here the input is laid out once per image so that each row of the GEMM's B
// is one offset into it, rows[k]:
//   - the padded input split by phase, stride s (sh x sw phases, those a
//     tap reads): phase (a, b) of channel c holds the padded input at rows sh*i + a and
//     columns sw*j + b, i < hq, j < wq, laid out flat (row i at i*wq);
//   - output position (y, x) is computed at flat index p = y*wq + x; under
//     tap (ky, kx) it reads phase ((ky*dh) % sh, (kx*dw) % sw) at
//     p + ((ky*dh) / sh)*wq + (kx*dw) / sw. So nr consecutive outputs read nr
//     consecutive floats under every tap, and row k = (c, ky, kx) of B is one
//     offset from the plane: rows[k].
// A panel's rows for one K block (kc x nr floats) are gathered into a
// contiguous panel once (gather_rows), and every tile of output channels runs
// the plain micro-kernel on it. Read in place by each tile instead (a kernel
// that loaded rows[k] a step), the rows, two cache lines each, came from L2
// for every tile: ResNet-50's stride-2 3x3 layers and its 7x7 stem ran
// 2.1-2.3x slower, the model 124-132 against 95-103 ms (Zen 3, 1 thread,
// three alternations).
// Columns x >= out_w of each output row (wq - out_w of them) are computed and
// dropped. W is the prepacked A of the GEMM (packed_a, blocked by
// gemm_kc(K)), in im2col's row order, which is rows' order. The tile goes
// to a staging buffer with the bias; copying its valid columns to Y adds a
// residual (Y already holding Z) and clamps.
// Work: tasks over images, chunks of positions and blocks of output
// channels, one staging buffer per thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "kernels/cpu/padded_plane.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/detail/sliding_window.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::conv_direct {

/// The direct path's layout for one shape (make_layout).
struct layout {
  std::int64_t sh = 1, sw = 1, hq = 0, wq = 0, plane = 0;
  std::vector<std::int64_t> phases;            // the phases some tap reads (a * sw + b), each a plane per channel
  std::int64_t out_h = 0, out_w = 0;
  std::int64_t positions = 0;                  // out_h * wq, the extra columns included
  std::int64_t panels = 0;                     // of nr positions, the last one part
  std::int64_t chunk = 0, chunks = 0;          // the widest task's positions (whole panels); tasks
  std::int64_t m_rows = 0, m_blocks = 1;       // output channels per task (whole mr panels)
  std::int64_t slots = 1;                      // threads, one staging buffer each
  std::int64_t input_elements = 0;             // the phase planes of one image, with slack
  std::int64_t stage_elements = 0;             // one staging buffer
  std::vector<std::int64_t> rows;              // K offsets into the phase planes
};

/// Multiply-adds below which the direct path runs on one thread.
inline constexpr std::int64_t direct_parallel_min_macs = std::int64_t{1} << 22;

/// The layout for a 2-D window `h` x `w` over G groups of Cg channels into
/// Mg each, or nullopt where the path does not apply: a stride past 4 (too
/// many phases), or planes far larger than the input (a vast padding:
/// padded_copy_fits).
inline std::optional<layout> make_layout(const ops::detail::window_axis& h, const ops::detail::window_axis& w,
                                         std::int64_t G, std::int64_t Cg, std::int64_t Mg, int mr, int nr,
                                         std::int64_t threads) {
  if (h.stride > 4 || w.stride > 4 || h.out <= 0 || w.out <= 0) return std::nullopt;
  {  // the phase planes together hold about the padded input: not a vast padding
    const auto extent = [](const ops::detail::window_axis& ax) {
      return static_cast<double>(ax.out) +
             static_cast<double>((ax.kernel - 1) * ax.dilation / ax.stride);  // rows of a phase plane
    };
    const double planes = extent(h) * extent(w) * static_cast<double>(h.stride * w.stride);
    if (!padded_copy_fits(planes, h.in, w.in)) return std::nullopt;
  }
  layout L;
  L.sh = h.stride, L.sw = w.stride;
  L.out_h = h.out, L.out_w = w.out;
  const std::int64_t dy_max = (h.kernel - 1) * h.dilation / L.sh, dx_max = (w.kernel - 1) * w.dilation / L.sw;
  L.hq = h.out + dy_max;
  L.wq = w.out + dx_max;
  L.plane = L.hq * L.wq;
  L.positions = L.out_h * L.wq;
  const std::int64_t taps = h.kernel * w.kernel;
  // Only the phases a tap reads are built (a 1x1 window at stride 2 reads one).
  std::vector<std::int64_t> index(static_cast<std::size_t>(L.sh * L.sw), -1);
  for (std::int64_t ky = 0; ky < h.kernel; ++ky)
    for (std::int64_t kx = 0; kx < w.kernel; ++kx) {
      const std::int64_t phase = ((ky * h.dilation) % L.sh) * L.sw + (kx * w.dilation) % L.sw;
      if (index[static_cast<std::size_t>(phase)] < 0) {
        index[static_cast<std::size_t>(phase)] = static_cast<std::int64_t>(L.phases.size());
        L.phases.push_back(phase);
      }
    }
  const auto used = static_cast<std::int64_t>(L.phases.size());
  L.rows.resize(static_cast<std::size_t>(Cg * taps));  // group 0's; group g's are g * Cg planes on
  for (std::int64_t c = 0; c < Cg; ++c)
    for (std::int64_t ky = 0; ky < h.kernel; ++ky)
      for (std::int64_t kx = 0; kx < w.kernel; ++kx) {
        const std::int64_t ty = ky * h.dilation, tx = kx * w.dilation;
        const std::int64_t phase = index[static_cast<std::size_t>((ty % L.sh) * L.sw + tx % L.sw)];
        L.rows[static_cast<std::size_t>((c * h.kernel + ky) * w.kernel + kx)] =
            (c * used + phase) * L.plane + (ty / L.sh) * L.wq + tx / L.sw;
      }
  // Reads run up to nr - 1 past the last position of a whole panel, plus
  // the largest shift: zeros there. Rounded to whole cache lines, so the
  // slots' buffers after the planes (and their gathered panels) start on one.
  L.input_elements = (G * Cg * used * L.plane + L.wq + 2 * nr + 15) / 16 * 16;
  const std::int64_t panels = (L.positions + nr - 1) / nr;
  const std::int64_t m_panels = (Mg + mr - 1) / mr;
  // Chunks of at most 8 panels, within one panel of each other (chunk i
  // holds panels [panels i / chunks, panels (i + 1) / chunks)), at least two
  // per thread where the map allows and as many as makes the tasks a
  // multiple of the threads; then blocks of output channels if the chunks
  // alone are too few. (Chunks of a fixed 6 panels left ResNet-50's 128x56x56
  // stride-2 layer 1.4x faster on two threads than on one.)
  L.panels = panels;
  L.chunks = (panels + 7) / 8;
  // A small convolution runs on one thread: DenseNet-121's 7x7 growth layers
  // (128 -> 32 channels, 2.3 M multiply-adds, ~35 us) took 0.68-0.84 ms a run
  // (16 layers) split over two threads and 0.57-0.70 on the one that built
  // the planes, against 0.54 in a one-thread session.
  if (G * Mg * Cg * taps * L.positions < direct_parallel_min_macs) threads = 1;
  if (threads > 1) {
    L.chunks = std::max(L.chunks, std::min(panels, 2 * threads));
    while ((G * L.chunks) % threads != 0 && L.chunks < panels) ++L.chunks;
  }
  L.chunk = (panels + L.chunks - 1) / L.chunks * nr;  // the widest chunk
  const std::int64_t want = 2 * threads, tasks = G * L.chunks;
  if (threads > 1 && tasks < want) L.m_blocks = std::min<std::int64_t>(m_panels, (want + tasks - 1) / tasks);
  L.m_rows = (m_panels + L.m_blocks - 1) / L.m_blocks * mr;
  L.m_blocks = (m_panels * mr + L.m_rows - 1) / L.m_rows;
  L.slots = std::max<std::int64_t>(1, std::min<std::int64_t>(threads, G * L.chunks * L.m_blocks));
  // Each slot's staging buffer, then its gathered B panel (gather_rows): one
  // K block of nr columns, no deeper than K, in whole cache lines.
  L.stage_elements = L.m_rows * L.chunk + (gemm_kc(Cg * taps) * nr + 15) / 16 * 16;
  return L;
}

/// Row k of B's panel (nr floats at b + rows[k]) to panel + k * nr, k < kc.
template <int NR>
void gather_rows_of(const float* b, const std::int64_t* rows, std::int64_t kc, float* panel) {
  for (std::int64_t k = 0; k < kc; ++k) std::memcpy(panel + k * NR, b + rows[k], sizeof(float) * NR);
}
inline void gather_rows(const float* b, const std::int64_t* rows, std::int64_t kc, int nr, float* panel) {
  switch (nr) {
    case 8: return gather_rows_of<8>(b, rows, kc, panel);
    case 12: return gather_rows_of<12>(b, rows, kc, panel);
    case 16: return gather_rows_of<16>(b, rows, kc, panel);
    case 32: return gather_rows_of<32>(b, rows, kc, panel);
    default:
      for (std::int64_t k = 0; k < kc; ++k) std::memcpy(panel + k * nr, b + rows[k], sizeof(float) * nr);
  }
}

/// The phase planes of one image (C channels of h.in x w.in at x) into dst.
inline void build_planes(const layout& L, const ops::detail::window_axis& h, const ops::detail::window_axis& w,
                         std::int64_t C, const float* x, float* dst, const thread_pool* pool) {
  const isa::f32_strided_copy_fn copy = isa::active().f32_strided_copy;
  const auto used = static_cast<std::int64_t>(L.phases.size());
  parallel_for(pool, C * used, grain_for(L.plane), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t cp = b; cp < e; ++cp) {
      const std::int64_t c = cp / used, phase = L.phases[static_cast<std::size_t>(cp % used)];
      const std::int64_t a = phase / L.sw, bb = phase % L.sw;
      const float* xc = x + c * h.in * w.in;
      float* plane = dst + cp * L.plane;
      // columns j whose input column sw*j + bb - pad lies in [0, w.in)
      const std::int64_t first = bb - w.pad_begin;  // input column of j = 0
      const std::int64_t j0 = std::clamp<std::int64_t>((-first + L.sw - 1) / L.sw, 0, L.wq);
      const std::int64_t j1 = std::clamp<std::int64_t>(first >= w.in ? 0 : (w.in - first + L.sw - 1) / L.sw, j0, L.wq);
      for (std::int64_t i = 0; i < L.hq; ++i) {
        float* row = plane + i * L.wq;
        const std::int64_t r = L.sh * i + a - h.pad_begin;
        if (r < 0 || r >= h.in || j1 <= j0) {
          std::fill(row, row + L.wq, 0.0f);
          continue;
        }
        std::fill(row, row + j0, 0.0f);
        const float* src = xc + r * w.in + first + j0 * L.sw;
        if (L.sw == 1)
          std::memcpy(row + j0, src, sizeof(float) * static_cast<std::size_t>(j1 - j0));
        else
          copy(src, L.sw, j1 - j0, row + j0);
        std::fill(row + j1, row + L.wq, 0.0f);
      }
    }
  });
  std::fill(dst + C * used * L.plane, dst + L.input_elements, 0.0f);
}

/// Y (G x Mg x out_h x out_w per image) = clamp(W * X + bias (+ Y when
/// `accumulate`), lo, hi), group g's W in wp[g] (K = Cg x taps).
/// `scratch` holds input_elements + slots * stage_elements floats. False
/// when the run was told to stop.
inline bool run(const layout& L, const ops::detail::window_axis& h, const ops::detail::window_axis& w,
                std::int64_t N, std::int64_t G, std::int64_t Cg, std::int64_t Mg, std::int64_t K, const float* x,
                const std::vector<packed_a>& wp, const float* bias, float lo, float hi, bool accumulate, float* y,
                float* scratch, const thread_pool* pool, const kernel_call& call) {
  const isa::table& t = isa::active();
  const int mr = t.gemm_mr, nr = t.gemm_nr;
  const std::int64_t C = G * Cg, M = G * Mg, a_panels = (Mg + mr - 1) / mr, out_plane = L.out_h * L.out_w;
  const std::int64_t group_planes = Cg * static_cast<std::int64_t>(L.phases.size()) * L.plane;
  float* planes = scratch;
  float* stages = scratch + L.input_elements;
  const std::int64_t tasks = G * L.chunks * L.m_blocks;
  const bool clamp = lo > -std::numeric_limits<float>::infinity() || hi < std::numeric_limits<float>::infinity();
  for (std::int64_t n = 0; n < N; ++n) {
    if (call.stop_requested()) return false;
    build_planes(L, h, w, C, x + n * C * h.in * w.in, planes, pool);
    float* yn = y + n * M * out_plane;
    std::atomic<bool> stop{false};
    parallel_for(pool, L.slots, 1, [&](std::int64_t s0, std::int64_t s1) {
      for (std::int64_t slot = s0; slot < s1; ++slot) {
        float* stage = stages + slot * L.stage_elements;
        float* panel = stage + L.m_rows * L.chunk;
        for (std::int64_t task = tasks * slot / L.slots; task < tasks * (slot + 1) / L.slots; ++task) {
          if (stop.load(std::memory_order_relaxed) || call.stop_requested()) {
            stop.store(true, std::memory_order_relaxed);
            return;
          }
          const std::int64_t g = task / (L.chunks * L.m_blocks), in_group = task % (L.chunks * L.m_blocks);
          const std::int64_t chunk = in_group / L.m_blocks;
          const std::int64_t p0 = L.panels * chunk / L.chunks * nr;
          const std::int64_t p1 = std::min(L.panels * (chunk + 1) / L.chunks * nr, L.positions);
          const std::int64_t i0 = (in_group % L.m_blocks) * L.m_rows, i1 = std::min(i0 + L.m_rows, Mg);
          if (i0 >= i1) continue;
          const float* gplanes = planes + g * group_planes;
          float* yg = yn + g * Mg * out_plane;
          const float* gbias = bias ? bias + g * Mg : nullptr;
          // A panel of nr positions inside one output row's valid columns
          // goes straight to Y (row stride: Y's channel plane), with the
          // bias, the residual already in Y and the clamp in the kernel's
          // epilogue; a panel across a row's end (or its extra columns) goes
          // to the staging buffer and its valid columns are copied after.
          const auto straight = [&](std::int64_t jr) {
            const std::int64_t p = p0 + jr;
            return p % L.wq + nr <= L.out_w && p + nr <= L.positions;
          };
          for (std::int64_t pc = 0; pc < K; pc += gemm_kc(K)) {
            const std::int64_t kc = std::min(gemm_kc(K), K - pc);
            const bool last = pc + kc >= K;
            const float* block = wp[static_cast<std::size_t>(g)].data() + pc * a_panels * mr;
            for (std::int64_t jr = 0; jr < p1 - p0; jr += nr) {
              const bool to_y = straight(jr);
              const std::int64_t p = p0 + jr;
              gather_rows(gplanes + p, L.rows.data() + pc, kc, nr, panel);
              for (std::int64_t ir = i0; ir < i1; ir += mr) {
                isa::f32_gemm_params prm;
                prm.beta = pc > 0 || (to_y && accumulate) ? 1.0f : 0.0f;
                if (last) {
                  prm.row_bias = gbias ? gbias + ir : nullptr;
                  prm.clamp = clamp && (to_y || !accumulate);
                  prm.min = lo, prm.max = hi;
                }
                float* dst = to_y ? yg + ir * out_plane + (p / L.wq) * L.out_w + p % L.wq
                                  : stage + (ir - i0) * L.chunk + jr;
                t.f32_gemm(kc, block + (ir / mr) * kc * mr, panel, dst, to_y ? out_plane : L.chunk,
                           static_cast<int>(std::min<std::int64_t>(mr, i1 - ir)), nr, prm);
              }
            }
          }
          // the staged panels' valid columns to Y
          for (std::int64_t jr = 0; jr < p1 - p0; jr += nr) {
            if (straight(jr)) continue;
            const std::int64_t q0 = p0 + jr, q1 = std::min(q0 + nr, p1);
            for (std::int64_t oy = q0 / L.wq; oy * L.wq < q1 && oy < L.out_h; ++oy) {
              const std::int64_t xa = std::max<std::int64_t>(0, q0 - oy * L.wq);
              const std::int64_t xb = std::min<std::int64_t>(L.out_w, q1 - oy * L.wq);
              if (xb <= xa) continue;
              const std::int64_t cnt = xb - xa;
              for (std::int64_t i = i0; i < i1; ++i) {
                const float* src = stage + (i - i0) * L.chunk + (oy * L.wq + xa - p0);
                float* d = yg + i * out_plane + oy * L.out_w + xa;
                if (!accumulate) {  // bias and clamp done in the kernel
                  std::memcpy(d, src, sizeof(float) * static_cast<std::size_t>(cnt));
                  continue;
                }
                for (std::int64_t j = 0; j < cnt; ++j) d[j] = src[j] + d[j];
                if (clamp)  // as the kernel's epilogue clamps (NaN becomes lo)
                  for (std::int64_t j = 0; j < cnt; ++j) {
                    const float v = d[j] > lo ? d[j] : lo;
                    d[j] = v < hi ? v : hi;
                  }
              }
            }
          }
        }
      }
    });
    if (stop.load()) return false;
  }
  return true;
}

}  // namespace onyx::kernels::cpu::conv_direct
