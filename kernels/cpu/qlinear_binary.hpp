// kernel<ops::QLinearAdd, cpu>, kernel<ops::QLinearMul, cpu>: broadcasting
// (kernels/cpu/broadcast.hpp) with each element computed in the float32
// order of ONNX Runtime's x86 MLAS kernels, so results agree with ORT's even
// where the real value is a rounding tie. Add: each operand's scaled term
// (a * A_scale / C_scale) comes from a 256-entry table per input and is added
// to the zero points folded into one constant, then rounded and saturated.
// Mul: the exact integer product (a - A_zp)(b - B_zp) times A_scale B_scale /
// C_scale, plus C_zp, rounded and saturated.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/isa/q8.hpp"
#include "kernels/cpu/qlinear.hpp"
#include "onyx/ops/qlinear_add.hpp"
#include "onyx/ops/qlinear_mul.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

struct qlinear_binary_params {
  float a_scale, b_scale, c_scale;
  int a_zp, b_zp, c_zp;
};

template <class T, class Op> result<qlinear_binary_params> qlinear_binary_params_of(const call<Op>& c) {
  qlinear_binary_params p;
  ONYX_ASSIGN(p.a_scale, qlinear::scale(c, 1, "A_scale"));
  ONYX_ASSIGN(p.a_zp, qlinear::zero_point<T>(c, 2, "A_zero_point"));
  ONYX_ASSIGN(p.b_scale, qlinear::scale(c, 4, "B_scale"));
  ONYX_ASSIGN(p.b_zp, qlinear::zero_point<T>(c, 5, "B_zero_point"));
  ONYX_ASSIGN(p.c_scale, qlinear::scale(c, 6, "C_scale"));
  ONYX_ASSIGN(p.c_zp, qlinear::zero_point<T>(c, 7, "C_zero_point"));
  return p;
}

/// round(v) saturated to T (v already holds the output zero point).
/// o[i] = saturate(round_half_even(v[i])) for a row of floats, by the vector
/// quantizer of the int8 level (v / 1 + zero: exact; int8 through uint8 with
/// the zero moved up by 128 and the sign bit flipped). `v` is overwritten.
template <class T> void round_saturate_row(float* v, std::int64_t n, T* o) {
  constexpr bool is_signed = std::is_signed_v<T>;
  auto* bytes = reinterpret_cast<std::uint8_t*>(o);
  isa::q8_active().f32_quantize_u8(v, n, 1.0f, is_signed ? 128.0f : 0.0f, bytes);
  if (is_signed)
    for (std::int64_t i = 0; i < n; ++i) bytes[i] ^= 0x80;
}

/// Runs row(values, count, out) over [0, n) in chunks of at most 256 floats.
template <class T, class F> void in_chunks(std::int64_t n, T* out, F fill) {
  float v[256];
  for (std::int64_t i0 = 0; i0 < n; i0 += 256) {
    const std::int64_t m = std::min<std::int64_t>(256, n - i0);
    fill(i0, m, v);
    round_saturate_row(v, m, out + i0);
  }
}

/// The rows of a broadcasting binary QLinear op (A input 0, B input 3):
/// row(out, a, b, n, a_dense, b_dense) for each run of n outputs, where an
/// operand that is not dense holds one value for the whole run.
template <class T, class Op, class Row> status for_each_qlinear_row(const call<Op>& c, Row row) {
  const tensor &a = c.input(0), &b = c.input(3);
  tensor& y = c.output(0);
  ONYX_ASSIGN(auto plan, (plan_broadcast<2>(y.shape(), {&a.shape(), &b.shape()})));
  const T* xa = a.data<T>();
  const T* xb = b.data<T>();
  T* out = y.data<T>();
  const bool da = plan.inner_dense(0), db = plan.inner_dense(1);
  for_each_row(plan, c.pool(), elementwise_grain, [&](std::int64_t pos, const std::array<std::int64_t, 2>& off, std::int64_t n) {
    row(out + pos, xa + off[0], xb + off[1], n, da, db);
  });
  return ok();
}

template <class T> T round_saturate(float v) {
  constexpr float lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  return static_cast<T>(std::clamp(std::nearbyint(v), lo, hi));
}

template <class T> status qlinear_add(const call<ops::QLinearAdd>& c) {
  ONYX_ASSIGN(auto p, qlinear_binary_params_of<T>(c));
  // MLAS: c = round((fixed + a rAC) + b rBC) with fixed = C_zp - (rAC A_zp +
  // rBC B_zp), a and b the raw values; a scalar operand's term is folded
  // into `fixed` first (B's, or A's with the roles swapped).
  const float rac = p.a_scale / p.c_scale, rbc = p.b_scale / p.c_scale;
  std::array<float, 256> ta, tb;
  for (int b = 0; b < 256; ++b) {
    const float v = static_cast<float>(static_cast<T>(static_cast<std::uint8_t>(b)));
    ta[b] = v * rac;
    tb[b] = v * rbc;
  }
  const float fixed = static_cast<float>(p.c_zp) - (rac * static_cast<float>(p.a_zp) + rbc * static_cast<float>(p.b_zp));
  const float fixed_swapped =
      static_cast<float>(p.c_zp) - (rbc * static_cast<float>(p.b_zp) + rac * static_cast<float>(p.a_zp));
  const auto fast = isa::q8_active().qadd;
  const auto bytes = [](const T* p) { return reinterpret_cast<const std::uint8_t*>(p); };
  return for_each_qlinear_row<T>(c, [&](T* o, const T* ra, const T* rb, std::int64_t n, bool da, bool db) {
    if (fast && (da || db)) {
      const float c0 = da && db ? fixed : da ? fixed + tb[qlinear::index(*rb)] : fixed_swapped + ta[qlinear::index(*ra)];
      fast(bytes(ra), bytes(rb), n, da, db, c0, rac, rbc, std::is_signed_v<T>, reinterpret_cast<std::uint8_t*>(o));
    } else if (da && db) {
      in_chunks(n, o, [&](std::int64_t i0, std::int64_t m, float* v) {
        for (std::int64_t i = 0; i < m; ++i) v[i] = (fixed + ta[qlinear::index(ra[i0 + i])]) + tb[qlinear::index(rb[i0 + i])];
      });
    } else if (da) {
      const float f = fixed + tb[qlinear::index(*rb)];
      in_chunks(n, o, [&](std::int64_t i0, std::int64_t m, float* v) {
        for (std::int64_t i = 0; i < m; ++i) v[i] = f + ta[qlinear::index(ra[i0 + i])];
      });
    } else if (db) {
      const float f = fixed_swapped + ta[qlinear::index(*ra)];
      in_chunks(n, o, [&](std::int64_t i0, std::int64_t m, float* v) {
        for (std::int64_t i = 0; i < m; ++i) v[i] = f + tb[qlinear::index(rb[i0 + i])];
      });
    } else {
      std::fill_n(o, n, round_saturate<T>((fixed + ta[qlinear::index(*ra)]) + tb[qlinear::index(*rb)]));
    }
  });
}

template <class T> status qlinear_mul(const call<ops::QLinearMul>& c) {
  ONYX_ASSIGN(auto p, qlinear_binary_params_of<T>(c));
  // MLAS: c = round(float((a - A_zp)(b - B_zp)) * (A_scale B_scale / C_scale) + C_zp).
  const float m = p.a_scale * p.b_scale / p.c_scale, zc = static_cast<float>(p.c_zp);
  const int za = p.a_zp, zb = p.b_zp;
  const auto at = [](const T* p, bool dense, std::int64_t i) { return static_cast<int>(p[dense ? i : 0]); };
  const auto fast = isa::q8_active().qmul;
  return for_each_qlinear_row<T>(c, [&](T* o, const T* ra, const T* rb, std::int64_t n, bool da, bool db) {
    if (fast) {
      fast(reinterpret_cast<const std::uint8_t*>(ra), reinterpret_cast<const std::uint8_t*>(rb), n, da, db, za, zb, m, zc,
           std::is_signed_v<T>, reinterpret_cast<std::uint8_t*>(o));
      return;
    }
    in_chunks(n, o, [&](std::int64_t i0, std::int64_t cnt, float* v) {
      for (std::int64_t i = 0; i < cnt; ++i) {
        const int product = (at(ra, da, i0 + i) - za) * (at(rb, db, i0 + i) - zb);
        v[i] = static_cast<float>(product) * m + zc;
      }
    });
  });
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QLinearAdd, cpu> {
  static constexpr std::array types{ops::QLinearAdd::T};
  template <ops::signature S> static status run(const call<ops::QLinearAdd>& c) {
    return kernels::cpu::qlinear_add<kernels::cpu::qlinear::type<S>>(c);
  }
};

template <> struct kernel<ops::QLinearMul, cpu> {
  static constexpr std::array types{ops::QLinearMul::T};
  template <ops::signature S> static status run(const call<ops::QLinearMul>& c) {
    return kernels::cpu::qlinear_mul<kernels::cpu::qlinear::type<S>>(c);
  }
};

}  // namespace onyx
