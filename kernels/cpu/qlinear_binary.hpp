// kernel<ops::QLinearAdd, cpu>, kernel<ops::QLinearMul, cpu>: broadcasting
// (kernels/cpu/broadcast.hpp) with each element computed as ONNX Runtime's
// MLAS kernels do. Add: each operand's term A_scale / C_scale (a - A_zp)
// comes from a 256-entry table per input, and c = saturate(round(ta[a] +
// tb[b]) + C_zp). Mul: the exact integer product (a - A_zp)(b - B_zp) times
// A_scale B_scale / C_scale, rounded and saturated.
#pragma once

#include <array>

#include "kernels/cpu/broadcast.hpp"
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

template <class T> status qlinear_add(const call<ops::QLinearAdd>& c) {
  ONYX_ASSIGN(auto p, qlinear_binary_params_of<T>(c));
  std::array<float, 256> ta, tb;
  for (int b = 0; b < 256; ++b) {
    const int v = static_cast<int>(static_cast<T>(static_cast<std::uint8_t>(b)));
    ta[b] = p.a_scale / p.c_scale * static_cast<float>(v - p.a_zp);
    tb[b] = p.b_scale / p.c_scale * static_cast<float>(v - p.b_zp);
  }
  const int zc = p.c_zp;
  return broadcast_binary<T, T, T>(
      c.input(0), c.input(3), c.output(0),
      [&](T a, T b) { return qlinear::saturate_round<T>(ta[qlinear::index(a)] + tb[qlinear::index(b)], zc); },
      c.pool());
}

template <class T> status qlinear_mul(const call<ops::QLinearMul>& c) {
  ONYX_ASSIGN(auto p, qlinear_binary_params_of<T>(c));
  const float m = p.a_scale * p.b_scale / p.c_scale;
  const int za = p.a_zp, zb = p.b_zp, zc = p.c_zp;
  return broadcast_binary<T, T, T>(
      c.input(0), c.input(3), c.output(0),
      [=](T a, T b) {
        const int product = (static_cast<int>(a) - za) * (static_cast<int>(b) - zb);
        return qlinear::saturate_round<T>(m * static_cast<float>(product), zc);
      },
      c.pool());
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
