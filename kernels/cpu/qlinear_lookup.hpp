// kernel<ops::QLinearSigmoid, cpu>, kernel<ops::QLinearLeakyRelu, cpu>: with
// per-tensor scales and zero points an 8-bit input has 256 values, so each
// call builds the 256-entry table of results (dequantize, the activation in
// float32, requantize) and maps the tensor through it.
#pragma once

#include <cmath>

#include "kernels/cpu/qlinear.hpp"
#include "onyx/ops/qlinear_leaky_relu.hpp"
#include "onyx/ops/qlinear_sigmoid.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T, class Op, class F> status qlinear_unary(const call<Op>& c, F f) {
  ONYX_ASSIGN(float xs, qlinear::scale(c, 1, "X_scale"));
  ONYX_ASSIGN(int xz, qlinear::zero_point<T>(c, 2, "X_zero_point"));
  ONYX_ASSIGN(float ys, qlinear::scale(c, 3, "Y_scale"));
  ONYX_ASSIGN(int yz, qlinear::zero_point<T>(c, 4, "Y_zero_point"));
  const qlinear::table t = qlinear::make_table<T>(xs, xz, ys, yz, f);
  const tensor& x = c.input(0);
  qlinear::lookup(t, static_cast<const std::uint8_t*>(x.raw()), static_cast<std::uint8_t*>(c.output(0).raw()),
                  x.size(), c.pool());
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QLinearSigmoid, cpu> {
  static constexpr std::array types{ops::QLinearSigmoid::T};
  template <ops::signature S> static status run(const call<ops::QLinearSigmoid>& c) {
    return kernels::cpu::qlinear_unary<kernels::cpu::qlinear::type<S>>(c, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  }
};

template <> struct kernel<ops::QLinearLeakyRelu, cpu> {
  static constexpr std::array types{ops::QLinearLeakyRelu::T};
  template <ops::signature S> static status run(const call<ops::QLinearLeakyRelu>& c) {
    const float alpha = c.attrs().alpha;
    return kernels::cpu::qlinear_unary<kernels::cpu::qlinear::type<S>>(c, [alpha](float x) { return x < 0 ? alpha * x : x; });
  }
};

}  // namespace onyx
