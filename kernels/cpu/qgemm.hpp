// kernels/cpu/qgemm.hpp: 8-bit integer GEMM for the CPU backend.
//
//   acc[i][j] = sum_k (A[i][k] - za[i]) * (B[k][j] - zb[j])      (int32, exact)
//
// A is M x K, B is K x N, each uint8 or int8 in any combination; a zero point
// is one value for the whole matrix or one per row of A / column of B. The
// finished accumulators go block by block to the caller's sink, which turns
// them into the op's output (int32 as is, float with scales and bias, or
// requantized 8-bit) while the block is in cache.
//
// The micro-kernels (isa::q8_gemm_kernel) multiply unsigned A' by signed B'.
// Packing shifts whatever the operands are into that form: an int8 A becomes
// A' = A + 128, a uint8 B becomes B' = B - 128, and the zero points move with
// them, so (A - za)(B - zb) = (A' - za')(B' - zb'). The product is then
//   sum_k A'B' - za'[i] colsum(B')[j] - zb'[j] rowsum(A')[i] + K za'[i] zb'[j]
// with the row and column sums taken once while packing. Constant weights are
// packed once at prepare (q8_pack_a / q8_pack_b) with their sums.
//
// Algorithm: both operands in full-K panels of the kernel's mr rows / nr
// columns (packed now, in parallel, unless prepacked); C cut into blocks of
// MC x NC, one task each, split over the pool; within a block, K in slices
// of KC so that a B micro-panel stays in L1. Results are bit-identical for
// every thread count and every kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/cpu/isa/q8.hpp"
#include "onyx/core/thread_pool.hpp"

namespace onyx::kernels::cpu {

/// An 8-bit matrix as stored: element (k, w) of a K x W matrix, w running
/// over the rows of A or the columns of B.
struct q8_matrix {
  const std::uint8_t* data = nullptr;  // the bytes of the uint8 or int8 values
  bool is_signed = false;
  std::int64_t ld = 0;
  bool w_contiguous = false;  // (k, w) at data[k * ld + w], else at data[w * ld + k]
};

/// One operand in full-K panels for one kernel, with the sum over K of each
/// row (A) or column (B) of its shifted values. Owning, movable.
class q8_panels {
 public:
  q8_panels() = default;
  bool empty() const { return !data_; }
  std::int64_t width() const { return w_; }  // rows of A, columns of B
  std::int64_t depth() const { return k_; }
  bool source_signed() const { return signed_; }
  bool is_a() const { return a_; }
  const isa::q8_gemm_kernel* kernel() const { return kernel_; }
  const std::byte* data() const { return data_.get(); }
  const std::int32_t* sums() const { return sums_.get(); }
  /// Bytes from one panel to the next.
  std::int64_t panel_bytes() const { return panel_bytes_; }
  /// B for a pair-bound kernel (isa::q8_gemm_kernel::fixup): panel q's
  /// fixes, by group, at fixes() + fix_begin(q) up to fix_begin(q + 1).
  const isa::q8_fix* fixes() const { return fixes_.data(); }
  std::int64_t fix_begin(std::int64_t q) const { return fix_begin_.empty() ? 0 : fix_begin_[static_cast<std::size_t>(q)]; }
  std::int64_t fix_count() const { return static_cast<std::int64_t>(fixes_.size()); }

 private:
  friend q8_panels q8_pack(bool, std::int64_t, std::int64_t, const q8_matrix&, const thread_pool*,
                           const isa::q8_gemm_kernel&);
  friend void split_pairs(q8_panels&, std::int64_t, std::int64_t, std::int8_t*);
  struct free_bytes {
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte[], free_bytes> data_;
  std::unique_ptr<std::int32_t[]> sums_;
  std::vector<isa::q8_fix> fixes_;
  std::vector<std::int64_t> fix_begin_;  // per panel, and one past the last
  std::int64_t w_ = 0, k_ = 0, panel_bytes_ = 0;
  bool signed_ = false, a_ = false;
  const isa::q8_gemm_kernel* kernel_ = nullptr;
};

/// Packs A (M x K, as_a) or B (K x N) for `kernel`; `pool` may be null.
q8_panels q8_pack(bool as_a, std::int64_t W, std::int64_t K, const q8_matrix& x, const thread_pool* pool = nullptr,
                  const isa::q8_gemm_kernel& kernel = isa::q8_active());
inline q8_panels q8_pack_a(std::int64_t M, std::int64_t K, const q8_matrix& a,
                           const isa::q8_gemm_kernel& kernel = isa::q8_active()) {
  return q8_pack(true, M, K, a, nullptr, kernel);
}
inline q8_panels q8_pack_b(std::int64_t K, std::int64_t N, const q8_matrix& b,
                           const isa::q8_gemm_kernel& kernel = isa::q8_active()) {
  return q8_pack(false, N, K, b, nullptr, kernel);
}

/// Constant weights B (K x N) packed once: for `kernel`'s for_weights
/// kernel where it has one and packing for it leaves fixes in at most one
/// K group in eight, else for `kernel`. q8_gemm then runs the panels' kernel.
q8_panels q8_pack_weights(std::int64_t K, std::int64_t N, const q8_matrix& b,
                          const isa::q8_gemm_kernel& kernel = isa::q8_active());

/// One GEMM operand: the matrix, or its panels packed for the kernel in use,
/// and its zero point (null: 0; else one value, or one per row of A /
/// column of B when per_index), in the source type's values.
struct q8_operand {
  q8_matrix matrix;
  const q8_panels* packed = nullptr;
  const std::int32_t* zero_point = nullptr;
  bool per_index = false;
};

/// A finished block: the exact product at (i0 + r, j0 + c) is at(r, c):
/// acc[r * ld + c], plus the zero-point terms col_add[c] and row_add[r] where
/// they are set. Only a sink made by q8_sink::adding gets them set: it adds
/// them as it reads the block (one pass over the accumulators instead of
/// two), in int32 arithmetic that wraps like the accumulation.
struct q8_block {
  std::int64_t i0, j0, rows, cols;
  const std::int32_t* acc;
  std::int64_t ld;
  const std::int32_t* col_add = nullptr;
  const std::int32_t* row_add = nullptr;
  std::int32_t row_term(std::int64_t r) const { return row_add ? row_add[r] : 0; }
  std::int32_t at(std::int64_t r, std::int64_t c) const {
    const auto v = static_cast<std::uint32_t>(acc[r * ld + c]) + static_cast<std::uint32_t>(row_term(r)) +
                   static_cast<std::uint32_t>(col_add ? col_add[c] : 0);
    return static_cast<std::int32_t>(v);
  }
};

/// The block's exact products as int32, row r at y + r * ld.
inline void write_exact(const q8_block& blk, std::int32_t* y, std::int64_t ld) {
  for (std::int64_t r = 0; r < blk.rows; ++r)
    for (std::int64_t c = 0; c < blk.cols; ++c) y[r * ld + c] = blk.at(r, c);
}

/// A float output the GEMM may write itself, tile by tile, where the kernel
/// has q8_gemm_kernel::gemm_float: y[i * ldy + j] = float(the exact sum) *
/// scale[j] (+ bias[j]), rounded as write_dequantized rounds, then `then`
/// (when set) applied in place to each row of the tile while it is in L1;
/// the sink then gets no blocks.
struct q8_float_out {
  float* y = nullptr;
  std::int64_t ldy = 0;
  const float* scale = nullptr;
  const float* bias = nullptr;
  isa::f32_unary_fn then = nullptr;  // a fused GELU (isa::table::f32_gelu, f32_gelu_tanh)
};

/// Where blocks go; called from the pool's threads, once per block.
struct q8_sink {
  void* context;
  void (*write)(void* context, const q8_block& block);
  bool adds = false;  // reads col_add / row_add (see q8_block)
  q8_float_out floats;  // y null: none (an adding sink only)
  /// A sink that reads acc only: the GEMM adds the zero-point terms first.
  template <class F> static q8_sink of(F& f) {
    return {&f, [](void* c, const q8_block& b) { (*static_cast<F*>(c))(b); }, false, {}};
  }
  /// A sink that adds col_add / row_add itself where the block sets them.
  template <class F> static q8_sink adding(F& f) {
    return {&f, [](void* c, const q8_block& b) { (*static_cast<F*>(c))(b); }, true, {}};
  }
};

/// The product above for M x N x K, blocks handed to `sink`. A prepacked
/// operand's kernel (B's, else A's) is the one that runs, `kernel` otherwise.
void q8_gemm(std::int64_t M, std::int64_t N, std::int64_t K, const q8_operand& a, const q8_operand& b, q8_sink sink,
             const thread_pool* pool, const isa::q8_gemm_kernel& kernel = isa::q8_active());

}  // namespace onyx::kernels::cpu
