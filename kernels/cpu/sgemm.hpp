// kernels/cpu/sgemm.hpp: single-precision GEMM for the CPU backend.
//
//   C = clamp(alpha * op(A) * op(B) + beta * C + bias, ep.min, ep.max)
//
// Row-major, op(X) = X or X^T. op(A) is M x K, op(B) is K x N, C is M x N.
// Any M, N, K >= 0; K == 0 gives C = beta * C + bias (clamped). beta == 0
// never reads C, so C may start as garbage (NaN included).
//
// Algorithm (Goto/BLIS): C is cut into blocks of NC columns and MC rows, K
// into slices of KC; each slice of A and B is packed into panels of the
// micro-kernel's mr rows / nr columns (zero-padded), and the ISA micro-kernel
// (isa::table::f32_gemm) computes one mr x nr tile from them, applying beta,
// bias and clamp when it writes the tile. With a pool, the tiles of C are
// split over threads along the longer dimension in whole tiles, so the result
// is bit-identical for any thread count. Two shapes leave the tile kernel:
// one row of A (M = 1) is a GEMV that reads B as stored (isa::f32_gemv,
// f32_dot_rows), and a tile's last few columns (n <= isa::gemm_few_n) run
// isa::f32_gemm_few, which reads B where it lies.
//
// Weights: pack_b / pack_a pack an operand once (at prepare time) for the
// level active then; sgemm_packed uses it without repacking. A Conv computes
// W[Cout x K] * im2col[K x HW] with its weights as a packed_a and a per_row
// bias; a MatMul or Gemm with constant B uses a packed_b and a per_col bias.
//
// The trailing `kernels` argument picks the ISA level (tests run them all);
// a packed operand must be used with the level it was packed for (asserted).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/host_memory.hpp"
#include "onyx/core/thread_pool.hpp"

namespace onyx::kernels::cpu {

/// What is applied to each element of C after the product: a bias, then a
/// clamp (Relu: min = 0; Clip: min, max), then a pointwise function (GELU)
/// mapped over each finished tile while it is still in cache. Lets
/// Conv/Gemm/MatMul + bias + activation fuse.
struct gemm_epilogue {
  enum class bias_kind { none, per_row, per_col };
  enum class function { none, gelu, gelu_tanh };  // isa::table::f32_gelu, f32_gelu_tanh
  const float* bias = nullptr;  // M floats (per_row) or N floats (per_col)
  bias_kind kind = bias_kind::none;
  float min = -INFINITY, max = INFINITY;
  function then = function::none;
  bool accumulate = false;  // C += the product (beta = 1 whatever the call's beta): a residual already in C
};

/// C = op(A) * op(B) as described above. `pool` may be null (serial).
void sgemm(bool trans_a, bool trans_b, std::int64_t M, std::int64_t N, std::int64_t K,
           float alpha, const float* A, std::int64_t lda, const float* B, std::int64_t ldb,
           float beta, float* C, std::int64_t ldc, const thread_pool* pool,
           const gemm_epilogue& ep = {}, const isa::table& kernels = isa::active());

/// The GEMM's K blocks: K up to gemm_kc_max steps in one, a deeper K in
/// ceil(K / gemm_kc_max) blocks of gemm_kc(K) steps (the last one shorter).
/// Packed operands hold their steps in these blocks (packed_panels::blocked),
/// which a caller reading the panels itself follows (conv_direct.hpp). Each
/// block past the first reads and writes C's tiles again: blocks of at most
/// 512 (768 = 512 + 256, 1536 = 3 x 512) ran BERT's 128 x 768 x 768 product
/// 2.7% and 128 x 384 x 1536 2.9% slower, cube_1024 2.7% (Zen 3, 1 thread,
/// the two alternated call by call; 1536 gained nothing over 1024).
inline constexpr std::int64_t gemm_kc_max = 1024;
constexpr std::int64_t gemm_kc(std::int64_t K) {
  if (K <= gemm_kc_max) return K > 0 ? K : 1;
  const std::int64_t blocks = (K + gemm_kc_max - 1) / gemm_kc_max;
  return (K + blocks - 1) / blocks;
}

namespace detail {
struct free_deleter {
  void operator()(float* p) const { free_host(p); }  // blocks from aligned_bytes
};
/// An operand packed into panels of `width` rows (A) or columns (B), each
/// holding K steps of `width` floats, zero-padded past the matrix edge.
/// Blocked (the default): by the GEMM's K blocks, block after block, each
/// holding that block's steps of every panel (gemm.cpp, operand::blocked);
/// full-K: panel after panel (a caller that runs the micro-kernel over all
/// of K itself: Winograd).
class packed_panels {
 public:
  bool empty() const { return !data_; }
  bool blocked() const { return blocked_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  /// The ISA level whose micro-kernel tile this layout matches.
  isa::level isa() const { return isa_; }
  const float* data() const { return data_.get(); }

 protected:
  packed_panels() = default;
  packed_panels(std::int64_t rows, std::int64_t cols, std::int64_t panels, std::int64_t depth,
                int width, isa::level level, bool blocked);
  float* mutable_data() { return data_.get(); }

 private:
  std::unique_ptr<float[], free_deleter> data_;  // 64-byte aligned
  std::int64_t rows_ = 0, cols_ = 0;
  isa::level isa_ = isa::level::scalar;
  bool blocked_ = true;
};
}  // namespace detail

/// op(A) (M x K) packed for the micro-kernel; owning, movable.
class packed_a : public detail::packed_panels {
 public:
  packed_a() = default;
  /// Full-K panels of M x K for a producer that writes them itself: row i,
  /// step k at panel_data()[(i / mr) * K * mr + k * mr + i % mr], every
  /// element (the rows past M as zeros) left to the producer. Writing the
  /// panels straight spares the unpacked matrix (Winograd's weights: 36
  /// times M x C, 4x the raw weights, touched once more than they are kept).
  static packed_a full_k(std::int64_t M, std::int64_t K, const isa::table& kernels = isa::active());
  float* panel_data() { return mutable_data(); }

 private:
  friend packed_a pack_a(bool, std::int64_t, std::int64_t, const float*, std::int64_t,
                         const isa::table&, bool);
  using packed_panels::packed_panels;
};

/// op(B) (K x N) packed for the micro-kernel; owning, movable.
class packed_b : public detail::packed_panels {
 public:
  packed_b() = default;

 private:
  friend packed_b pack_b(bool, std::int64_t, std::int64_t, const float*, std::int64_t,
                         const isa::table&);
  using packed_panels::packed_panels;
};

/// Packs op(A), M x K. Costs M*K floats rounded up to whole panels.
/// `full_k`: panel after panel (see packed_panels), for a caller that reads
/// the panels itself.
packed_a pack_a(bool trans_a, std::int64_t M, std::int64_t K, const float* A, std::int64_t lda,
                const isa::table& kernels = isa::active(), bool full_k = false);
/// Packs op(B), K x N.
packed_b pack_b(bool trans_b, std::int64_t K, std::int64_t N, const float* B, std::int64_t ldb,
                const isa::table& kernels = isa::active());

/// sgemm with B prepacked (B.rows() == K, B.cols() == N).
void sgemm_packed(bool trans_a, std::int64_t M, std::int64_t N, std::int64_t K, float alpha,
                  const float* A, std::int64_t lda, const packed_b& B, float beta, float* C,
                  std::int64_t ldc, const thread_pool* pool, const gemm_epilogue& ep = {},
                  const isa::table& kernels = isa::active());
/// sgemm with A prepacked (A.rows() == M, A.cols() == K).
void sgemm_packed(bool trans_b, std::int64_t M, std::int64_t N, std::int64_t K, float alpha,
                  const packed_a& A, const float* B, std::int64_t ldb, float beta, float* C,
                  std::int64_t ldc, const thread_pool* pool, const gemm_epilogue& ep = {},
                  const isa::table& kernels = isa::active());

/// C = A * B with both operands packed: A by pack_a, B (K x N) laid out by
/// the caller as packed_b lays it out for `kernels` (full-K panels of nr
/// columns: column j of row k at B[(j / nr) * K * nr + k * nr + j % nr],
/// zero past N). Lets a producer write B straight in panel form (Conv's
/// im2col) instead of a matrix that would then be packed.
void sgemm_panels(std::int64_t M, std::int64_t N, std::int64_t K, const packed_a& A, const float* B, float* C,
                  std::int64_t ldc, const thread_pool* pool, const gemm_epilogue& ep = {},
                  const isa::table& kernels = isa::active());

}  // namespace onyx::kernels::cpu
