// kernel<ops::MatMulInteger, cpu>, kernel<ops::QLinearMatMul, cpu>: operands
// decoded to doubles by the Cast codecs (exact for 8-bit integers and
// float8), zero points subtracted per row of A / column of B, and each
// output element a direct dot product in double (exact: |products| <= 2^16,
// so sums stay exact below 2^37 terms). Batch dims broadcast like MatMul's;
// batches split over the pool.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/quantize.hpp"
#include "onyx/ops/mat_mul_integer.hpp"
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

}  // namespace kernels::cpu

template <> struct kernel<ops::MatMulInteger, cpu> {
  static constexpr std::array types{ops::MatMulInteger::T1};
  template <ops::signature> static status run(const call<ops::MatMulInteger>& c) {
    std::int32_t* y = c.output(0).data<std::int32_t>();
    return kernels::cpu::integer_matmul(c, 0, 1, 2, 3, [&](std::int64_t at, double s, std::int64_t, std::int64_t) {
      y[at] = static_cast<std::int32_t>(static_cast<std::int64_t>(s));
    });
  }
};

template <> struct kernel<ops::QLinearMatMul, cpu> {
  static constexpr std::array types{ops::QLinearMatMul::T1};
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
    auto range = quant_range(y.type());
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

}  // namespace onyx
