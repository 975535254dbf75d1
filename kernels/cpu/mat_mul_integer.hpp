// kernel<ops::MatMulInteger, cpu>, kernel<ops::QLinearMatMul, cpu>,
// kernel<ops::QGemm, cpu> (com.microsoft, below): 8-bit
// operands on the int8 GEMM (kernels/cpu/qgemm.hpp, exact int32 products with
// the zero points removed), a constant 2-D B packed once at prepare. A 2-D B
// shared by every batch of A makes one GEMM of all of A's rows; otherwise
// each batch is its own GEMM. QLinearMatMul requantizes each finished block:
// y = saturate(round_half_even(acc * (a_scale * b_scale / y_scale)) + y_zero_point),
// the factor rounded to float as the ONNX reference does and the product
// taken in double. Its float8 forms keep the direct loop over operands decoded
// to doubles (exact: |products| <= 2^16, sums exact below 2^37 terms).
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/qgemm.hpp"
#include "kernels/cpu/quantize.hpp"
#include "onyx/ops/mat_mul_integer.hpp"
#include "onyx/ops/q_gemm.hpp"
#include "onyx/ops/qlinear_mat_mul.hpp"

namespace onyx {

namespace kernels::cpu {

/// Shapes of a numpy matmul: M x K times K x N per batch, with each output
/// batch's A and B matrix index.
struct matmul_batches {
  std::int64_t m = 1, k = 1, n = 1;
  extents out;
  std::vector<std::int64_t> a_index, b_index;
};

inline result<matmul_batches> plan_matmul(const extents& a, const extents& b) {
  if (a.empty() || b.empty()) return status(errc::invalid_argument, "matmul operands must have rank >= 1");
  matmul_batches p;
  p.k = a.back();
  p.m = a.size() >= 2 ? a[a.size() - 2] : 1;
  p.n = b.size() >= 2 ? b.back() : 1;
  std::int64_t kb = b.size() >= 2 ? b[b.size() - 2] : b[0];
  if (kb != p.k)
    return status(errc::invalid_argument, "A " + sym_shape(a).str() + " and B " + sym_shape(b).str() +
                                              " disagree on the inner dimension");
  extents ab(a.begin(), a.end() - std::min<std::size_t>(a.size(), 2));
  extents bb(b.begin(), b.end() - std::min<std::size_t>(b.size(), 2));
  std::size_t r = std::max(ab.size(), bb.size());
  extents batch(r);
  for (std::size_t i = 0; i < r; ++i) {
    std::int64_t x = i + ab.size() >= r ? ab[i + ab.size() - r] : 1, y = i + bb.size() >= r ? bb[i + bb.size() - r] : 1;
    if (x != y && x != 1 && y != 1)
      return status(errc::invalid_argument, "batch dims of " + sym_shape(a).str() + " and " + sym_shape(b).str() +
                                                " do not broadcast");
    batch[i] = x == 1 ? y : x;
  }
  for (std::int64_t flat = 0; flat < element_count(batch); ++flat) {
    std::int64_t ai = 0, bi = 0, as = 1, bs = 1;
    for (std::size_t i = r, rem = flat; i-- > 0;) {
      std::int64_t v = static_cast<std::int64_t>(rem) % batch[i];
      rem /= batch[i];
      if (i + ab.size() >= r) {
        std::int64_t d = ab[i + ab.size() - r];
        ai += (d == 1 ? 0 : v) * as, as *= d;
      }
      if (i + bb.size() >= r) {
        std::int64_t d = bb[i + bb.size() - r];
        bi += (d == 1 ? 0 : v) * bs, bs *= d;
      }
    }
    p.a_index.push_back(ai);
    p.b_index.push_back(bi);
  }
  p.out = batch;
  if (a.size() >= 2) p.out.push_back(p.m);
  if (b.size() >= 2) p.out.push_back(p.n);
  return p;
}

/// One zero point or scale per row (or column) of `count`, or one for all.
inline result<std::vector<double>> per_index(const kernel_call& c, int i, std::int64_t count, double fallback,
                                             const char* what) {
  std::vector<double> v(static_cast<std::size_t>(count), fallback);
  if (!c.has_input(i)) return v;
  std::vector<double> given = decode_all(c.input(i));
  if (given.size() == 1) return std::vector<double>(v.size(), given[0]);
  if (static_cast<std::int64_t>(given.size()) != count || c.input(i).rank() != 1)
    return status(errc::invalid_argument, std::string(what) + " of shape " + sym_shape(c.input(i).shape()).str() +
                                              " is neither a scalar nor a vector of " + std::to_string(count));
  return given;
}

/// acc[batch][m][n] = sum_k (A - za[m]) (B - zb[n]) for every output element,
/// handed to `emit(flat_index, acc, m, n)`.
template <class Emit>
status integer_matmul(const kernel_call& c, int a_in, int b_in, int za_in, int zb_in, Emit emit) {
  const tensor& a = c.input(a_in);
  const tensor& b = c.input(b_in);
  ONYX_ASSIGN(auto p, plan_matmul(a.shape(), b.shape()));
  ONYX_ASSIGN(auto za, per_index(c, za_in, p.m, 0.0, "a_zero_point"));
  ONYX_ASSIGN(auto zb, per_index(c, zb_in, p.n, 0.0, "b_zero_point"));
  std::vector<double> av = decode_all(a), bv = decode_all(b);
  const std::int64_t mk = p.m * p.k, kn = p.k * p.n, mn = p.m * p.n;
  parallel_for(c.pool(), static_cast<std::int64_t>(p.a_index.size()), 1, [&](std::int64_t first, std::int64_t last) {
    std::vector<double> bt(static_cast<std::size_t>(kn));  // B - zb, transposed to N x K
    for (std::int64_t bi = first; bi < last; ++bi) {
      const double* am = av.data() + p.a_index[bi] * mk;
      const double* bm = bv.data() + p.b_index[bi] * kn;
      for (std::int64_t kk = 0; kk < p.k; ++kk)
        for (std::int64_t j = 0; j < p.n; ++j) bt[j * p.k + kk] = bm[kk * p.n + j] - zb[j];
      for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.n; ++j) {
          double s = 0;
          for (std::int64_t kk = 0; kk < p.k; ++kk) s += (am[i * p.k + kk] - za[i]) * bt[j * p.k + kk];
          emit(bi * mn + i * p.n + j, s, i, j);
        }
    }
  });
  return ok();
}


/// An 8-bit tensor's zero point input as int32 values (absent: {0}).
inline std::vector<std::int32_t> zero_points(const kernel_call& c, int i) {
  if (!c.has_input(i)) return {0};
  const tensor& z = c.input(i);
  std::vector<std::int32_t> v(static_cast<std::size_t>(z.size()));
  if (z.type() == dtype::int8)
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = z.data<std::int8_t>()[k];
  else
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = z.data<std::uint8_t>()[k];
  return v;
}

inline bool is_q8(dtype t) { return t == dtype::uint8 || t == dtype::int8; }

/// A row-major R x C 8-bit matrix as a q8_matrix: A (w = row) or B (w = column).
inline q8_matrix q8_rows(const void* data, dtype t, std::int64_t cols, bool as_a) {
  return {static_cast<const std::uint8_t*>(data), t == dtype::int8, cols, !as_a};
}

/// What MatMulInteger / QLinearMatMul prepare keeps: a constant 2-D B packed.
struct q8_matmul_state {
  q8_panels b;
};

/// Packs input b_in when it is a constant 8-bit matrix: [K, N], or [N, K]
/// when `transposed` (QGemm's transB, read in place).
inline q8_matmul_state prepare_q8_b(const prepare_info_base& p, int b_in, bool transposed = false) {
  q8_matmul_state s;
  const tensor* b = p.constant(b_in);
  if (b && b->rank() == 2 && is_q8(b->type())) {
    const std::int64_t k = b->dim(transposed ? 1 : 0), n = b->dim(transposed ? 0 : 1);
    s.b = q8_pack_weights(k, n, q8_matrix{static_cast<const std::uint8_t*>(b->raw()), b->type() == dtype::int8,
                                          transposed ? k : n, !transposed});
    p.consume_constant(b_in);  // run reads the panels (the kernel is fixed for the process)
  }
  return s;
}

/// The panels prepare_q8_b packed, where they hold a K x N B for the kernel
/// in use; else null (B is then read from the input).
inline const q8_panels* prepacked_b(const kernel_call& c, std::int64_t k, std::int64_t n) {
  if (!c.state_) return nullptr;
  const q8_panels& s = c.state<q8_matmul_state>().b;
  const isa::q8_gemm_kernel& active = isa::q8_active();
  return !s.empty() && (s.kernel() == &active || s.kernel() == active.for_weights) && s.depth() == k && s.width() == n
             ? &s
             : nullptr;
}

/// The exact products of an 8-bit numpy matmul, handed to sink(y_offset, block)
/// where y_offset is the flat output index of the block's (0, 0) and a row of
/// the block is n elements further on.
/// A is given as its bytes, type and shape (the node's input, or a quantized
/// copy of a float input) with its zero points. With `floats` (y: the flat
/// float output, ldy n), a kernel that can writes the float output itself
/// (q8_float_out) and the sink gets only what it leaves.
template <class Sink>
status q8_matmul(const kernel_call& c, const std::uint8_t* ab, dtype a_type, const extents& a_shape,
                 std::vector<std::int32_t> za, int b_in, int zb_in, Sink sink, q8_float_out floats = {}) {
  const tensor& b = c.input(b_in);
  ONYX_ASSIGN(auto p, plan_matmul(a_shape, b.shape()));
  const std::vector<std::int32_t> zb = zero_points(c, zb_in);
  if ((za.size() != 1 && static_cast<std::int64_t>(za.size()) != p.m) ||
      (zb.size() != 1 && static_cast<std::int64_t>(zb.size()) != p.n))
    return status(errc::invalid_argument, "zero points hold " + std::to_string(za.size()) + " and " +
                                              std::to_string(zb.size()) + " values for " + std::to_string(p.m) +
                                              " rows and " + std::to_string(p.n) + " columns");
  const q8_panels* packed = prepacked_b(c, p.k, p.n);
  const auto* bb = static_cast<const std::uint8_t*>(b.raw());
  if (!packed && !bb && b.size() > 0) return status(errc::internal, "B was packed at prepare for another shape and released");
  const bool shared_b = b.rank() <= 2;
  // B shared by every batch: one GEMM over all rows of A (per-row zero points repeat).
  const std::int64_t batches = shared_b ? 1 : static_cast<std::int64_t>(p.a_index.size());
  const std::int64_t rows = shared_b ? static_cast<std::int64_t>(p.a_index.size()) * p.m : p.m;
  if (shared_b && za.size() > 1) {
    std::vector<std::int32_t> all(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) all[static_cast<std::size_t>(r)] = za[static_cast<std::size_t>(r % p.m)];
    za = std::move(all);
  }
  for (std::int64_t bi = 0; bi < batches; ++bi) {
    q8_operand qa, qb;
    qa.matrix = {ab + (shared_b ? 0 : p.a_index[bi] * p.m * p.k), a_type == dtype::int8, p.k, false};
    qb.matrix = {bb + (shared_b ? 0 : p.b_index[bi] * p.k * p.n), b.type() == dtype::int8, p.n, true};
    qb.packed = packed;
    qa.zero_point = za.data();
    qa.per_index = za.size() > 1;
    qb.zero_point = zb.data();
    qb.per_index = zb.size() > 1;
    const std::int64_t base = bi * p.m * p.n;
    auto write = [&](const q8_block& blk) { sink(base + blk.i0 * p.n + blk.j0, blk); };
    q8_sink to = q8_sink::adding(write);
    if (floats.y) {
      to.floats = floats;
      to.floats.y += base;
    }
    q8_gemm(rows, p.n, p.k, qa, qb, to, c.pool());
  }
  return ok();
}

/// q8_matmul on the node's own 8-bit A and zero point inputs.
template <class Sink>
status q8_matmul(const kernel_call& c, int a_in, int b_in, int za_in, int zb_in, Sink sink, q8_float_out floats = {}) {
  const tensor& a = c.input(a_in);
  return q8_matmul(c, static_cast<const std::uint8_t*>(a.raw()), a.type(), a.shape(), zero_points(c, za_in), b_in,
                   zb_in, sink, floats);
}

}  // namespace kernels::cpu

template <> struct kernel<ops::MatMulInteger, cpu> {
  static constexpr std::array types{ops::MatMulInteger::T1};
  using state = kernels::cpu::q8_matmul_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::MatMulInteger>& p) {
    return kernels::cpu::prepare_q8_b(p, 1);
  }
  template <ops::signature> static status run(const call<ops::MatMulInteger>& c) {
    using namespace kernels::cpu;
    std::int32_t* y = c.output(0).data<std::int32_t>();
    const std::int64_t n = c.input(1).rank() >= 2 ? c.input(1).dim(c.input(1).rank() - 1) : 1;
    return q8_matmul(c, 0, 1, 2, 3, [&](std::int64_t at, const q8_block& blk) { write_exact(blk, y + at, n); });
  }
};

template <> struct kernel<ops::QLinearMatMul, cpu> {
  static constexpr std::array types{ops::QLinearMatMul::T1};
  using state = kernels::cpu::q8_matmul_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::QLinearMatMul>& p) {
    return kernels::cpu::prepare_q8_b(p, 3);
  }
  template <ops::signature> static status run(const call<ops::QLinearMatMul>& c) {
    using namespace kernels::cpu;
    const tensor& a = c.input(0);
    const tensor& b = c.input(3);
    tensor& y = c.output(0);
    std::int64_t m = a.rank() >= 2 ? a.dim(a.rank() - 2) : 1, n = b.rank() >= 2 ? b.dim(b.rank() - 1) : 1;
    ONYX_ASSIGN(auto sa, per_index(c, 1, m, 1.0, "a_scale"));
    ONYX_ASSIGN(auto sb, per_index(c, 4, n, 1.0, "b_scale"));
    ONYX_ASSIGN(auto sy, per_index(c, 6, 1, 1.0, "y_scale"));
    ONYX_ASSIGN(auto zy, per_index(c, 7, 1, 0.0, "y_zero_point"));
    if (is_q8(a.type()) && is_q8(b.type()) && is_q8(y.type())) {
      // factor[i][j] = float(float(sa[i] sb[j]) / sy): one per column unless A's scale is per row
      const bool per_row = std::any_of(sa.begin(), sa.end(), [&](double v) { return v != sa[0]; });
      std::vector<double> factor(static_cast<std::size_t>((per_row ? m : 1) * n));
      for (std::size_t i = 0; i < (per_row ? static_cast<std::size_t>(m) : 1); ++i)
        for (std::size_t j = 0; j < static_cast<std::size_t>(n); ++j)
          factor[i * n + j] = round_to(dtype::float32, round_to(dtype::float32, sa[i] * sb[j]) / sy[0]);
      const double z = zy[0];
      auto* out = static_cast<std::uint8_t*>(y.raw());
      const bool out_signed = y.type() == dtype::int8;
      const auto requantize = isa::q8_active().requantize;
      return q8_matmul(c, 0, 3, 2, 5, [&](std::int64_t at, const q8_block& blk) {
        for (std::int64_t r = 0; r < blk.rows; ++r) {
          const double* f = factor.data() + (per_row ? ((blk.i0 + r) % m) * n : 0) + blk.j0;
          requantize(blk.acc + r * blk.ld, blk.cols, blk.col_add, blk.row_term(r), nullptr, 0.0, f, 0.0, z, out_signed,
                     out + at + r * n);
        }
      });
    }
    auto range = quant_range(y.type());  // float8: the direct loop
    std::vector<double> r(static_cast<std::size_t>(y.size()));
    ONYX_TRY(integer_matmul(c, 0, 3, 2, 5, [&](std::int64_t at, double s, std::int64_t i, std::int64_t j) {
      double factor = round_to(dtype::float32, round_to(dtype::float32, sa[i] * sb[j]) / sy[0]);
      double v = s * factor + zy[0];
      r[at] = range ? std::clamp(std::nearbyint(v), range->first, range->second) : v;
    }));
    if (y.bytes() > 0) std::memset(y.raw(), 0, y.bytes());
    encode_block(y, 0, y.size(), r.data(), nullptr, false, cast_options{});
    return ok();
  }
};

// QGemm: one GEMM of A' (M x K) and B' (K x N), either read transposed in
// place (q8_matrix's layouts), B packed at prepare when constant. Each
// finished block, with C's int32 added to the exact sums: float32 Y =
// float(v) * float(alpha a_scale b_scale[j]), or the quantized Y through the
// requantizer with the factor float(alpha a_scale b_scale[j] / y_scale)
// (each product and the division rounded to float32).
template <> struct kernel<ops::QGemm, cpu> {
  static constexpr std::array types{ops::QGemm::TA};
  using state = kernels::cpu::q8_matmul_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::QGemm>& p) {
    return kernels::cpu::prepare_q8_b(p, 3, p.attrs().transB != 0);
  }
  template <ops::signature> static status run(const call<ops::QGemm>& c) {
    using namespace kernels::cpu;
    const auto& at = c.attrs();
    const tensor& a = c.input(0);
    const tensor& b = c.input(3);
    tensor& y = c.output(0);
    if (a.rank() != 2 || b.rank() != 2)
      return status(errc::invalid_argument, "A " + to_string(a.shape()) + " and B " + to_string(b.shape()) + " must be matrices");
    const std::int64_t m = a.dim(at.transA ? 1 : 0), k = a.dim(at.transA ? 0 : 1), n = b.dim(at.transB ? 0 : 1);
    if (b.dim(at.transB ? 1 : 0) != k)
      return status(errc::invalid_argument, "op(A) " + to_string(a.shape()) + " and op(B) " + to_string(b.shape()) +
                                                " disagree on K");
    if (y.size() == 0) return ok();
    ONYX_ASSIGN(auto sa, per_index(c, 1, 1, 1.0, "a_scale"));
    ONYX_ASSIGN(auto sb, per_index(c, 4, n, 1.0, "b_scale"));
    const std::vector<std::int32_t> za = zero_points(c, 2), zb = zero_points(c, 5);
    if (za.size() != 1 || (zb.size() != 1 && static_cast<std::int64_t>(zb.size()) != n))
      return status(errc::invalid_argument, "a_zero_point must be a scalar and b_zero_point a scalar or " +
                                                std::to_string(n) + " values");
    // C [M, N] broadcast: its element (i, j) at c_data[i * cm + j * cn].
    const std::int32_t* c_data = nullptr;
    std::int64_t cm = 0, cn = 0;
    if (c.has_input(6)) {
      const tensor& ct = c.input(6);
      const std::int64_t rows = ct.rank() == 2 ? ct.dim(0) : 1, cols = ct.rank() >= 1 ? ct.dim(ct.rank() - 1) : 1;
      if (ct.rank() > 2 || (rows != 1 && rows != m) || (cols != 1 && cols != n))
        return status(errc::invalid_argument, "C " + to_string(ct.shape()) + " does not broadcast to [" +
                                                  std::to_string(m) + "," + std::to_string(n) + "]");
      c_data = ct.data<std::int32_t>();
      cm = rows == 1 ? 0 : cols, cn = cols == 1 ? 0 : 1;
    }
    // alpha a_scale b_scale[j] (/ y_scale), each step rounded to float32.
    const bool quantized = c.has_input(7);
    ONYX_ASSIGN(auto sy, per_index(c, 7, 1, 1.0, "y_scale"));
    ONYX_ASSIGN(auto zy, per_index(c, 8, 1, 0.0, "y_zero_point"));
    std::vector<double> factor(static_cast<std::size_t>(n));
    for (std::size_t j = 0; j < factor.size(); ++j) {
      const double s = round_to(dtype::float32, round_to(dtype::float32, at.alpha * sa[0]) * sb[j]);
      factor[j] = quantized ? round_to(dtype::float32, s / sy[0]) : s;
    }
    const q8_panels* packed = prepacked_b(c, k, n);
    const auto* bb = static_cast<const std::uint8_t*>(b.raw());
    if (!packed && !bb) return status(errc::internal, "B was packed at prepare for another shape and released");
    q8_operand qa, qb;
    qa.matrix = {static_cast<const std::uint8_t*>(a.raw()), a.type() == dtype::int8, at.transA ? m : k, at.transA != 0};
    qb.matrix = {bb, b.type() == dtype::int8, at.transB ? k : n, at.transB == 0};
    qb.packed = packed;
    qa.zero_point = za.data();
    qb.zero_point = zb.data();
    qb.per_index = zb.size() > 1;
    const auto requantize = isa::q8_active().requantize;
    const bool out_signed = y.type() == dtype::int8;
    auto write = [&](const q8_block& blk) {
      thread_local std::vector<double> c_row;
      for (std::int64_t r = 0; r < blk.rows; ++r) {
        const std::int64_t i = blk.i0 + r;
        const std::int32_t* crow = c_data ? c_data + i * cm + blk.j0 * cn : nullptr;
        if (quantized) {
          if (crow) {
            c_row.resize(static_cast<std::size_t>(blk.cols));
            for (std::int64_t j = 0; j < blk.cols; ++j) c_row[static_cast<std::size_t>(j)] = crow[j * cn];
          }
          requantize(blk.acc + r * blk.ld, blk.cols, blk.col_add, blk.row_term(r), crow ? c_row.data() : nullptr, 0.0,
                     factor.data() + blk.j0, 0.0, zy[0], out_signed,
                     static_cast<std::uint8_t*>(y.raw()) + i * n + blk.j0);
        } else {
          float* yr = y.data<float>() + i * n + blk.j0;
          for (std::int64_t j = 0; j < blk.cols; ++j) {
            // int32 arithmetic wraps like the accumulation
            const auto v = static_cast<std::uint32_t>(blk.at(r, j)) + static_cast<std::uint32_t>(crow ? crow[j * cn] : 0);
            yr[j] = static_cast<float>(static_cast<float>(static_cast<std::int32_t>(v)) *
                                       static_cast<float>(factor[static_cast<std::size_t>(blk.j0 + j)]));
          }
        }
      }
    };
    q8_gemm(m, n, k, qa, qb, q8_sink::adding(write), c.pool());
    return ok();
  }
};

}  // namespace onyx
