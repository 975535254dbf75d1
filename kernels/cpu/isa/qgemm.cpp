// Baseline code: the choice of int8 micro-kernel, and the packing, blocking
// and threading of q8_gemm around it (see kernels/cpu/qgemm.hpp). Kept out of
// dispatch.cpp so that a program with no integer op links none of it.
#include "kernels/cpu/qgemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "kernels/cpu/isa/aligned.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#if !defined(ONYX_ISA_SINGLE_TU)
#define ONYX_ISA_HAS_Q8_AVX2 1
#define ONYX_ISA_HAS_AVX2VNNI 1
#define ONYX_ISA_HAS_AVX512VNNI 1
#define ONYX_ISA_HAS_AVX512VBMI 1
#endif

namespace onyx::kernels::cpu {

namespace isa {
namespace scalar { extern const q8_gemm_kernel q8_kernel; }
#if defined(__x86_64__) || defined(__i386__)
#if ONYX_ISA_HAS_Q8_AVX2
namespace avx2 { extern const q8_gemm_kernel q8_kernel, q8_kernel_c4; }
#endif
#if ONYX_ISA_HAS_AVX2VNNI
namespace avx2vnni { extern const q8_gemm_kernel q8_kernel; }
#endif
#if ONYX_ISA_HAS_AVX512VNNI
namespace avx512vnni { extern const q8_gemm_kernel q8_kernel; }
#endif
#if ONYX_ISA_HAS_AVX512VBMI
namespace avx512vbmi {
void u8_lookup__avx512vbmi_x64(const std::uint8_t* table, const std::uint8_t* x, std::uint8_t* y, std::int64_t n);
}
#endif
#endif

namespace {
void u8_lookup__scalar(const std::uint8_t* table, const std::uint8_t* x, std::uint8_t* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = table[x[i]];
}
}  // namespace

u8_lookup_fn u8_lookup() {
  static const u8_lookup_fn f = [] {
#if (defined(__x86_64__) || defined(__i386__)) && ONYX_ISA_HAS_AVX512VBMI
    if (selected() >= level::avx512 && __builtin_cpu_supports("avx512vbmi")) return &avx512vbmi::u8_lookup__avx512vbmi_x64;
#endif
    return &u8_lookup__scalar;
  }();
  return f;
}

namespace {
#if (defined(__x86_64__) || defined(__i386__)) && ONYX_ISA_HAS_AVX2VNNI
// AVX-VNNI: CPUID leaf 7, sub-leaf 1, EAX bit 4 (clang 16's
// __builtin_cpu_supports does not know the name; the OS's saving of the ymm
// state is what detected() >= avx2 already checked).
bool has_avx_vnni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a >> 4 & 1u);
}
#endif

// The kernels this CPU runs, lowest first, each with the level it needs
// (a pair-bound one, never q8_active's pick, as if it needed more).
struct q8_list {
  const q8_gemm_kernel* kernels[5] = {};
  level needs[5] = {};
  int count = 0;
  void add(const q8_gemm_kernel& k, level l) { kernels[count] = &k, needs[count++] = l; }
  q8_list() {
    add(scalar::q8_kernel, level::scalar);
#if defined(__x86_64__) || defined(__i386__)
#if ONYX_ISA_HAS_Q8_AVX2
    if (detected() >= level::avx2) add(avx2::q8_kernel, level::avx2);
    if (detected() >= level::avx2) add(avx2::q8_kernel_c4, level::avx2);
#endif
#if ONYX_ISA_HAS_AVX2VNNI
    if (detected() >= level::avx2 && has_avx_vnni()) add(avx2vnni::q8_kernel, level::avx2);
#endif
#if ONYX_ISA_HAS_AVX512VNNI
    if (detected() >= level::avx512 && __builtin_cpu_supports("avx512vnni")) add(avx512vnni::q8_kernel, level::avx512);
#endif
#endif
  }
};
const q8_list& q8_kernels() {
  static const q8_list list;
  return list;
}
}  // namespace

const q8_gemm_kernel* const* q8_available(int* n) {
  *n = q8_kernels().count;
  return q8_kernels().kernels;
}

const q8_gemm_kernel& q8_active() {
  static const q8_gemm_kernel& chosen = []() -> const q8_gemm_kernel& {
    const q8_list& all = q8_kernels();
    int pick = 0;  // scalar; else the last (highest) one the selected level runs
    for (int i = 1; i < all.count; ++i)
      if (selected() >= all.needs[i] && !all.kernels[i]->fixup) pick = i;
    return *all.kernels[pick];
  }();
  return chosen;
}
}  // namespace isa

namespace qgemm_detail {
namespace {

using std::int64_t;

// Blocking: a KC slice of a B micro-panel (1024 steps x 32 columns x 1 byte,
// or x 16 columns x 2 bytes: 32 KiB) stays in L1 while the A panels of an
// MC block stream past it from L2; the int32 accumulators of an MC x NC block
// (256 KiB) stay in L2 until the sink reads them. BERT's K = 768 is then one
// slice (no second pass over the accumulators) and its M = 128 one block:
// int8 BERT-12 at 1 thread 35.6 -> 32.7 ms against KC 512, MC 96, NC 256
// (Zen 5, 1 MiB L2); the PP-OCR convolutions are unchanged.
constexpr int64_t q8_kc_block = 1024;  // a multiple of every k_group
constexpr int64_t q8_mc_target = 128;
constexpr int64_t q8_nc_target = 512;

// A task should carry at least this many multiply-adds, or waking a worker
// costs more than it saves.
constexpr double q8_min_macs_per_task = 1 << 19;

// Panels [q0, q1) of one operand into the kernel's layout (see isa.hpp):
// value (k, w) of panel q at dst[q * panel + ((k / g) * width + w % width) * g + k % g].
// The shift: A' = A + 128 for int8 A, B' = B - 128 for uint8 B (xor 0x80).
template <class T>
void pack_range(bool as_a, const q8_matrix& x, int64_t W, int64_t K, int width, int g, T* dst, int64_t panel,
                std::int32_t* sums, int64_t q0, int64_t q1, const isa::q8_gemm_kernel& kernel) {
  const std::uint8_t flip = as_a == x.is_signed ? 0x80 : 0x00;
  const auto value = [&](std::uint8_t byte) -> int {
    const std::uint8_t v = byte ^ flip;
    return as_a ? static_cast<int>(v) : static_cast<int>(static_cast<std::int8_t>(v));
  };
  for (int64_t q = q0; q < q1; ++q) {
    T* d = dst + q * panel;
    std::memset(d, 0, static_cast<std::size_t>(panel) * sizeof(T));
    const int64_t w0 = q * width;
    const int n = static_cast<int>(std::min<int64_t>(width, W - w0));
    if (!x.w_contiguous && sizeof(T) == 1 && g == 4) {
      // Rows contiguous along K, groups of four bytes: whole 32-bit moves.
      const std::uint32_t flip4 = flip * 0x01010101u;
      const int64_t whole = K / 4;
      int64_t done = 0;  // groups the kernel's pack_a8 packed and summed
      if (as_a && width == 8 && n == 8 && kernel.pack_a8) {
        kernel.pack_a8(x.data + w0 * x.ld, x.ld, K / 32, flip, reinterpret_cast<std::uint32_t*>(d), sums + w0);
        done = K / 32 * 8;
      }
      for (int i = 0; i < n; ++i) {
        const std::uint8_t* s = x.data + (w0 + i) * x.ld;
        std::int32_t sum = done ? sums[w0 + i] : 0;
        for (int64_t k = done * 4; k < K; ++k) sum += value(s[k]);
        sums[w0 + i] = sum;
        for (int64_t p = done; p < whole; ++p) {
          std::uint32_t v;
          std::memcpy(&v, s + p * 4, 4);
          v ^= flip4;
          std::memcpy(d + (p * width + i) * 4, &v, 4);
        }
        for (int64_t k = whole * 4; k < K; ++k) d[(whole * width + i) * 4 + k % 4] = static_cast<T>(value(s[k]));
      }
    } else if (!x.w_contiguous && sizeof(T) == 2 && g == 2) {
      for (int i = 0; i < n; ++i) {
        const std::uint8_t* s = x.data + (w0 + i) * x.ld;
        std::int32_t sum = 0;
        T* di = d + i * 2;
        for (int64_t k = 0; k < K; ++k) {
          const int v = value(s[k]);
          di[(k >> 1) * width * 2 + (k & 1)] = static_cast<T>(v);
          sum += v;
        }
        sums[w0 + i] = sum;
      }
    } else if (!x.w_contiguous) {
      for (int i = 0; i < n; ++i) {
        const std::uint8_t* s = x.data + (w0 + i) * x.ld;
        std::int32_t sum = 0;
        for (int64_t k = 0; k < K; ++k) {
          const int v = value(s[k]);
          d[((k / g) * width + i) * g + k % g] = static_cast<T>(v);
          sum += v;
        }
        sums[w0 + i] = sum;
      }
    } else if (sizeof(T) == 1 && g == 4 && n == width && width <= 64) {
      // K rows contiguous along W (B row-major, im2col): four rows at a time
      // interleaved into 32-bit groups, column sums alongside.
      std::int32_t sum[64] = {};
      const int64_t whole = K / 4;
      for (int64_t p = 0; p < whole; ++p) {
        const std::uint8_t* r0 = x.data + (p * 4) * x.ld + w0;
        const std::uint8_t* r1 = r0 + x.ld;
        const std::uint8_t* r2 = r1 + x.ld;
        const std::uint8_t* r3 = r2 + x.ld;
        kernel.interleave4(r0, r1, r2, r3, width, flip, as_a, reinterpret_cast<std::uint32_t*>(d + p * width * 4), sum);
      }
      for (int64_t k = whole * 4; k < K; ++k) {
        const std::uint8_t* s = x.data + k * x.ld + w0;
        T* dk = d + (k / 4) * width * 4 + k % 4;
        for (int i = 0; i < width; ++i) {
          const int v = value(s[i]);
          dk[i * 4] = static_cast<T>(v);
          sum[i] += v;
        }
      }
      for (int i = 0; i < width; ++i) sums[w0 + i] = sum[i];
    } else {
      std::int32_t sum[64] = {};  // width <= 64
      for (int64_t k = 0; k < K; ++k) {
        const std::uint8_t* s = x.data + k * x.ld + w0;
        T* dk = d + (k / g) * width * g + k % g;
        for (int i = 0; i < n; ++i) {
          const int v = value(s[i]);
          dk[i * g] = static_cast<T>(v);
          sum[i] += v;
        }
      }
      for (int i = 0; i < n; ++i) sums[w0 + i] = sum[i];
    }
  }
}

struct q8_problem {
  int64_t M, N, K;
  const q8_panels* a;
  const q8_panels* b;
  std::vector<std::int32_t> za, zb;  // shifted zero points, per row / per column
  std::vector<std::int32_t> colterm;   // one za' for all rows: K za' zb'[j] - za' colsum(B')[j]
  bool za_zero, zb_zero, zb_uniform;
  q8_sink sink;
  const isa::q8_gemm_kernel* kernel;
  int64_t mc, nc;
};

// The block of rows [i0, i0 + rows) and columns [j0, j0 + cols).
void q8_run_block(const q8_problem& p, int64_t i0, int64_t rows, int64_t j0, int64_t cols) {
  thread_local std::vector<std::int32_t> acc_buffer;
  if (acc_buffer.size() < static_cast<std::size_t>(p.mc * p.nc)) acc_buffer.resize(static_cast<std::size_t>(p.mc * p.nc));
  std::int32_t* acc = acc_buffer.data();
  const int64_t ld = p.nc;
  const isa::q8_gemm_kernel& k = *p.kernel;
  const int mr = k.mr, nr = k.nr, g = k.k_group;
  using u32 = std::uint32_t;
  // The zero points' terms as the adding sink would get them: one per
  // column (colterm) and one per row (below).
  const bool adding_terms = p.sink.adds && p.zb_uniform && (p.za_zero || !p.colterm.empty());
  thread_local std::vector<std::int32_t> row_buffer;
  if (adding_terms && !p.zb_zero) {
    row_buffer.resize(static_cast<std::size_t>(rows));
    const u32 zb = static_cast<u32>(p.zb[0]);
    for (int64_t r = 0; r < rows; ++r)
      row_buffer[static_cast<std::size_t>(r)] = static_cast<std::int32_t>(u32(0) - zb * static_cast<u32>(p.a->sums()[i0 + r]));
  }
  // Floats written by the kernel itself in the last K slice (the sink's
  // float output, where the kernel has gemm_float): the accumulators never
  // go to memory and back through a dequantizing pass.
  const q8_float_out& fo = p.sink.floats;
  const bool floats = adding_terms && fo.y && k.gemm_float && !k.fixup;
  int64_t k0 = 0;
  do {  // K == 0 still takes one pass, writing zeros
    const int64_t kc = std::min(q8_kc_block, p.K - k0);
    const int64_t groups = (kc + g - 1) / g;
    const int64_t a_off = (k0 / g) * mr * g * k.a_bytes, b_off = (k0 / g) * nr * g * k.b_bytes;
    const int64_t p0 = k0 / g;
    for (int64_t jr = 0; jr < cols; jr += nr) {
      const int64_t panel = (j0 + jr) / nr;
      const std::byte* bp = p.b->data() + panel * p.b->panel_bytes() + b_off;
      // This slice's fixes of the panel (a pair-bound kernel's; by group).
      const isa::q8_fix* fix = nullptr;
      int64_t fixes = 0;
      if (k.fixup && p.b->fix_count()) {
        const isa::q8_fix* first = p.b->fixes() + p.b->fix_begin(panel);
        const isa::q8_fix* end = p.b->fixes() + p.b->fix_begin(panel + 1);
        const auto by_group = [](const isa::q8_fix& f, int64_t v) { return f.group < v; };
        fix = std::lower_bound(first, end, p0, by_group);
        fixes = std::lower_bound(fix, end, p0 + groups, by_group) - fix;
      }
      const int n = static_cast<int>(std::min<int64_t>(nr, cols - jr));
      // The first row tile pulls in the B slice that comes next: the next
      // panel, else the first one of the next KC slice. Constant weights come from
      // memory, and the kernel reads them faster than the hardware prefetcher
      // brings them (16 bytes a cycle on VNNI). The kernel fetches as much as
      // it reads of b: a shorter next slice is left alone.
      const std::byte* next = nullptr;
      if (jr + nr < cols)
        next = bp + p.b->panel_bytes();
      else if (k0 + kc < p.K)
        next = std::min(q8_kc_block, p.K - k0 - kc) == kc
                   ? p.b->data() + (j0 / nr) * p.b->panel_bytes() + ((k0 + kc) / g) * nr * g * k.b_bytes
                   : nullptr;
      const bool last = k0 + kc >= p.K;
      for (int64_t ir = 0; ir < rows; ir += mr) {
        const std::byte* ap = p.a->data() + ((i0 + ir) / mr) * p.a->panel_bytes() + a_off;
        const int m = static_cast<int>(std::min<int64_t>(mr, rows - ir));
        if (floats && last) {
          const int64_t j = j0 + jr;
          const isa::q8_float_tile out{fo.y + (i0 + ir) * fo.ldy + j,
                                       fo.ldy,
                                       p.zb_zero ? nullptr : row_buffer.data() + ir,
                                       p.za_zero ? nullptr : p.colterm.data() + j,
                                       fo.scale + j,
                                       fo.bias ? fo.bias + j : nullptr};
          k.gemm_float(groups, ap, bp, acc + ir * ld + jr, ld, m, n, k0 > 0, ir == 0 ? next : nullptr, out);
          if (fo.then)
            for (int r = 0; r < m; ++r) fo.then(out.y + r * fo.ldy, out.y + r * fo.ldy, n);
        } else {
          k.gemm(groups, ap, bp, acc + ir * ld + jr, ld, m, n, k0 > 0, ir == 0 ? next : nullptr);
          if (fixes) k.fixup(fix, fixes, p0, ap, acc + ir * ld + jr, ld, m, n);
        }
      }
    }
    k0 += kc;
  } while (k0 < p.K);
  if (floats) return;
  // Zero points: - za' colsum(B') - zb' rowsum(A') + K za' zb' (int32
  // arithmetic wraps like the accumulation: done in uint32 to keep it defined).
  if (adding_terms) {
    // Left to the sink as one term per column (colterm) and one per row.
    q8_block blk{i0, j0, rows, cols, acc, ld};
    if (!p.za_zero) blk.col_add = p.colterm.data() + j0;
    if (!p.zb_zero) blk.row_add = row_buffer.data();
    p.sink.write(p.sink.context, blk);
    return;
  }
  if (!p.za_zero || !p.zb_zero) {
    const std::int32_t* rowsum = p.a->sums() + i0;
    const std::int32_t* colsum = p.b->sums() + j0;
    const std::int32_t* zb = p.zb.data() + j0;
    for (int64_t r = 0; r < rows; ++r) {
      std::int32_t* row = acc + r * ld;
      const u32 rs = static_cast<u32>(rowsum[r]);
      if (!p.colterm.empty()) {  // one za': its terms per column are ready
        const std::int32_t* ct = p.colterm.data() + j0;
        if (p.zb_zero)
          for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<std::int32_t>(static_cast<u32>(row[c]) + static_cast<u32>(ct[c]));
        else
          for (int64_t c = 0; c < cols; ++c)
            row[c] = static_cast<std::int32_t>(static_cast<u32>(row[c]) + static_cast<u32>(ct[c]) - static_cast<u32>(zb[c]) * rs);
        continue;
      }
      const u32 za = static_cast<u32>(p.za[static_cast<std::size_t>(i0 + r)]), kk = static_cast<u32>(p.K);
      for (int64_t c = 0; c < cols; ++c)
        row[c] = static_cast<std::int32_t>(static_cast<u32>(row[c]) - za * static_cast<u32>(colsum[c]) -
                                           static_cast<u32>(zb[c]) * rs + kk * za * static_cast<u32>(zb[c]));
    }
  }
  p.sink.write(p.sink.context, q8_block{i0, j0, rows, cols, acc, ld});
}

std::vector<std::int32_t> shifted_zero_points(const q8_operand& x, int64_t count, std::int32_t shift, bool* all_zero) {
  std::vector<std::int32_t> z(static_cast<std::size_t>(count), shift);
  if (x.zero_point)
    for (int64_t i = 0; i < count; ++i) z[static_cast<std::size_t>(i)] += x.zero_point[x.per_index ? i : 0];
  *all_zero = std::all_of(z.begin(), z.end(), [](std::int32_t v) { return v == 0; });
  return z;
}

}  // namespace
}  // namespace qgemm_detail

void q8_panels::free_bytes::operator()(std::byte* p) const { free_host(p); }

// B for a pair-bound kernel (4-byte groups, 16 columns): each pair of a
// column's group over the bound, |b0| + |b1| > 128, keeps b / 2 (rounded
// toward zero, at most 64 in size) in the panel, and the rest (at most 64)
// goes to the group's fix; a group with any such pair gets one. Sums over K
// are unchanged: each value is split, not altered.
void split_pairs(q8_panels& out, std::int64_t panels, std::int64_t groups, std::int8_t* d) {
  out.fix_begin_.assign(static_cast<std::size_t>(panels + 1), 0);
  const int64_t panel = groups * 64;
  for (int64_t q = 0; q < panels; ++q) {
    out.fix_begin_[static_cast<std::size_t>(q)] = static_cast<int64_t>(out.fixes_.size());
    for (int64_t p = 0; p < groups; ++p) {
      std::int8_t* grp = d + q * panel + p * 64;
      isa::q8_fix* fix = nullptr;
      for (int t = 0; t < 64; t += 2) {
        const int b0 = grp[t], b1 = grp[t + 1];
        if (std::abs(b0) + std::abs(b1) <= 128) continue;
        if (!fix) {
          fix = &out.fixes_.emplace_back();
          fix->group = p;
          std::memset(fix->b, 0, sizeof fix->b);
        }
        grp[t] = static_cast<std::int8_t>(b0 / 2);
        grp[t + 1] = static_cast<std::int8_t>(b1 / 2);
        fix->b[t] = static_cast<std::int8_t>(b0 - b0 / 2);
        fix->b[t + 1] = static_cast<std::int8_t>(b1 - b1 / 2);
      }
    }
  }
  out.fix_begin_[static_cast<std::size_t>(panels)] = static_cast<int64_t>(out.fixes_.size());
}

q8_panels q8_pack(bool as_a, std::int64_t W, std::int64_t K, const q8_matrix& x, const thread_pool* pool,
                  const isa::q8_gemm_kernel& kernel) {
  using namespace qgemm_detail;
  q8_panels out;
  const int width = as_a ? kernel.mr : kernel.nr, g = kernel.k_group, bytes = as_a ? kernel.a_bytes : kernel.b_bytes;
  const int64_t groups = std::max<int64_t>((K + g - 1) / g, 1);
  const int64_t panels = std::max<int64_t>((W + width - 1) / width, 1);
  const int64_t panel = groups * g * width;  // elements
  out.w_ = W;
  out.k_ = K;
  out.signed_ = x.is_signed;
  out.a_ = as_a;
  out.kernel_ = &kernel;
  out.panel_bytes_ = panel * bytes;
  out.data_.reset(static_cast<std::byte*>(aligned_bytes(static_cast<std::size_t>(panels * panel * bytes))));
  out.sums_ = std::make_unique<std::int32_t[]>(static_cast<std::size_t>(panels * width));
  std::int32_t* sums = out.sums_.get();
  std::byte* d = out.data_.get();
  const auto pack = [&](int64_t q0, int64_t q1) {
    if (bytes == 1) {
      if (as_a)
        pack_range(as_a, x, W, K, width, g, reinterpret_cast<std::uint8_t*>(d), panel, sums, q0, q1, kernel);
      else
        pack_range(as_a, x, W, K, width, g, reinterpret_cast<std::int8_t*>(d), panel, sums, q0, q1, kernel);
    } else {
      pack_range(as_a, x, W, K, width, g, reinterpret_cast<std::int16_t*>(d), panel, sums, q0, q1, kernel);
    }
  };
  const int64_t per_panel = std::max<int64_t>(K * width, 1);
  if (pool && pool->size() > 1 && panels * per_panel >= (1 << 16))
    pool->parallel_for(panels, std::max<int64_t>((1 << 14) / per_panel, 1), pack);
  else
    pack(0, panels);
  if (!as_a && kernel.fixup) split_pairs(out, panels, groups, reinterpret_cast<std::int8_t*>(d));
  return out;
}

q8_panels q8_pack_weights(std::int64_t K, std::int64_t N, const q8_matrix& b, const isa::q8_gemm_kernel& kernel) {
  if (kernel.for_weights) {
    q8_panels p = q8_pack(false, N, K, b, nullptr, *kernel.for_weights);
    const int64_t groups = std::max<int64_t>((K + 3) / 4, 1) * ((N + kernel.for_weights->nr - 1) / kernel.for_weights->nr);
    if (p.fix_count() * 8 <= groups) return p;
  }
  return q8_pack(false, N, K, b, nullptr, kernel);
}

void q8_gemm(std::int64_t M, std::int64_t N, std::int64_t K, const q8_operand& a, const q8_operand& b, q8_sink sink,
             const thread_pool* pool, const isa::q8_gemm_kernel& chosen) {
  using namespace qgemm_detail;
  if (M <= 0 || N <= 0) return;
  const isa::q8_gemm_kernel& kernel = b.packed ? *b.packed->kernel() : a.packed ? *a.packed->kernel() : chosen;
  q8_panels a_now, b_now;
  q8_problem p;
  p.M = M, p.N = N, p.K = K;
  p.kernel = &kernel;
  p.a = a.packed;
  p.b = b.packed;
  if (!p.a) {
    a_now = q8_pack(true, M, K, a.matrix, pool, kernel);
    p.a = &a_now;
  }
  if (!p.b) {
    b_now = q8_pack(false, N, K, b.matrix, pool, kernel);
    p.b = &b_now;
  }
  p.za = shifted_zero_points(a, M, p.a->source_signed() ? 128 : 0, &p.za_zero);
  p.zb = shifted_zero_points(b, N, p.b->source_signed() ? 0 : -128, &p.zb_zero);
  p.zb_uniform = std::all_of(p.zb.begin(), p.zb.end(), [&](std::int32_t v) { return v == p.zb[0]; });
  p.sink = sink;
  if (!p.za_zero && std::all_of(p.za.begin(), p.za.end(), [&](std::int32_t v) { return v == p.za[0]; })) {
    using u32 = std::uint32_t;
    const u32 za = static_cast<u32>(p.za[0]), kk = static_cast<u32>(K);
    p.colterm.resize(static_cast<std::size_t>(N));
    for (int64_t j = 0; j < N; ++j)
      p.colterm[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(
          kk * za * static_cast<u32>(p.zb[static_cast<std::size_t>(j)]) - za * static_cast<u32>(p.b->sums()[j]));
  }
  const int mr = kernel.mr, nr = kernel.nr;
  // Blocks of equal size (a last block of a few rows would leave a thread idle
  // while another finishes a full one), in whole micro-tiles.
  const auto even = [](int64_t total, int64_t target, int unit) {
    const int64_t blocks = std::max<int64_t>((total + target - 1) / target, 1);
    return std::max<int64_t>(((total + blocks - 1) / blocks + unit - 1) / unit, 1) * unit;
  };
  p.mc = even(M, std::max<int64_t>(q8_mc_target / mr, 1) * mr, mr);
  p.nc = even(N, std::max<int64_t>(q8_nc_target / nr, 1) * nr, nr);
  const int64_t mb = (M + p.mc - 1) / p.mc;
  int64_t nb = (N + p.nc - 1) / p.nc;
  const int threads = pool ? pool->size() : 1;
  // Few blocks for the threads: narrower column blocks, in whole panels.
  if (threads > 1 && mb * nb < 2 * threads) {
    const int64_t n_panels = (N + nr - 1) / nr;
    const int64_t want = std::min<int64_t>(n_panels, (2 * threads + mb - 1) / mb);
    p.nc = (n_panels + want - 1) / want * nr;
    nb = (N + p.nc - 1) / p.nc;
  }
  const auto block = [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t bi = t / nb, bj = t % nb;
      const int64_t i0 = bi * p.mc, j0 = bj * p.nc;
      q8_run_block(p, i0, std::min(p.mc, M - i0), j0, std::min(p.nc, N - j0));
    }
  };
  const double macs = static_cast<double>(p.mc) * static_cast<double>(p.nc) * static_cast<double>(std::max<int64_t>(K, 1));
  if (threads > 1 && mb * nb > 1)
    pool->parallel_for(mb * nb, static_cast<int64_t>(q8_min_macs_per_task / macs) + 1, block);
  else
    block(0, mb * nb);
}

}  // namespace onyx::kernels::cpu
