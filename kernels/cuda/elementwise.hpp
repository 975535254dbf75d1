// kernel<Op, cuda> for the elementwise ops: unary math and activations, and
// the broadcasting binary ops. float32 and float16 (computed in float).
#pragma once

#include "kernels/cuda/common.hpp"
#include "onyx/ops/abs.hpp"
#include "onyx/ops/add.hpp"
#include "onyx/ops/ceil.hpp"
#include "onyx/ops/clip.hpp"
#include "onyx/ops/cos.hpp"
#include "onyx/ops/div.hpp"
#include "onyx/ops/elu.hpp"
#include "onyx/ops/erf.hpp"
#include "onyx/ops/exp.hpp"
#include "onyx/ops/floor.hpp"
#include "onyx/ops/gelu.hpp"
#include "onyx/ops/hard_sigmoid.hpp"
#include "onyx/ops/hard_swish.hpp"
#include "onyx/ops/leaky_relu.hpp"
#include "onyx/ops/log.hpp"
#include "onyx/ops/mul.hpp"
#include "onyx/ops/neg.hpp"
#include "onyx/ops/pow.hpp"
#include "onyx/ops/prelu.hpp"
#include "onyx/ops/reciprocal.hpp"
#include "onyx/ops/relu.hpp"
#include "onyx/ops/sigmoid.hpp"
#include "onyx/ops/sin.hpp"
#include "onyx/ops/softplus.hpp"
#include "onyx/ops/sqrt.hpp"
#include "onyx/ops/sub.hpp"
#include "onyx/ops/tanh.hpp"

namespace onyx {

namespace kernels::cuda {

/// y = f(x); `Params` gives (alpha, beta) from the node's attributes.
template <class Op, unary_fn F>
struct unary_kernel {
  static constexpr std::array types{floats};
  template <ops::signature S>
  static status run(const call<Op>& c) {
    float alpha = 0, beta = 0;
    if constexpr (F == unary_fn::leaky_relu || F == unary_fn::elu) alpha = c.attrs().alpha;
    if constexpr (F == unary_fn::hard_sigmoid) alpha = c.attrs().alpha, beta = c.attrs().beta;
    return unary(F, S[0], c.input(0).raw(), c.output(0).raw(), c.input(0).size(), alpha, beta);
  }
};

/// y = f(a, b) with numpy broadcasting.
template <class Op, binary_fn F, dtype_set Types = floats>
struct binary_kernel {
  static constexpr std::array types{Types};
  template <ops::signature S>
  static status run(const call<Op>& c) {
    ONYX_ASSIGN(auto s, broadcast_of(c.input(0), c.input(1), c.output(0)));
    return binary(F, S[0], c.input(0).raw(), c.input(1).raw(), c.output(0).raw(), s);
  }
};

/// Float only: integer arithmetic is shape arithmetic, which stays on the CPU
/// (see data_movement.hpp's `movable`).
inline constexpr dtype_set arithmetic = floats;

}  // namespace kernels::cuda

namespace kcu = kernels::cuda;

// clang-format off
template <> struct kernel<ops::Relu, cuda> : kcu::unary_kernel<ops::Relu, kcu::unary_fn::relu> {};
template <> struct kernel<ops::Sigmoid, cuda> : kcu::unary_kernel<ops::Sigmoid, kcu::unary_fn::sigmoid> {};
template <> struct kernel<ops::Tanh, cuda> : kcu::unary_kernel<ops::Tanh, kcu::unary_fn::tanh> {};
template <> struct kernel<ops::Erf, cuda> : kcu::unary_kernel<ops::Erf, kcu::unary_fn::erf> {};
template <> struct kernel<ops::Exp, cuda> : kcu::unary_kernel<ops::Exp, kcu::unary_fn::exp> {};
template <> struct kernel<ops::Log, cuda> : kcu::unary_kernel<ops::Log, kcu::unary_fn::log> {};
template <> struct kernel<ops::Sqrt, cuda> : kcu::unary_kernel<ops::Sqrt, kcu::unary_fn::sqrt> {};
template <> struct kernel<ops::Neg, cuda> : kcu::unary_kernel<ops::Neg, kcu::unary_fn::neg> {};
template <> struct kernel<ops::Abs, cuda> : kcu::unary_kernel<ops::Abs, kcu::unary_fn::abs> {};
template <> struct kernel<ops::Reciprocal, cuda> : kcu::unary_kernel<ops::Reciprocal, kcu::unary_fn::reciprocal> {};
template <> struct kernel<ops::Floor, cuda> : kcu::unary_kernel<ops::Floor, kcu::unary_fn::floor> {};
template <> struct kernel<ops::Ceil, cuda> : kcu::unary_kernel<ops::Ceil, kcu::unary_fn::ceil> {};
template <> struct kernel<ops::Sin, cuda> : kcu::unary_kernel<ops::Sin, kcu::unary_fn::sin> {};
template <> struct kernel<ops::Cos, cuda> : kcu::unary_kernel<ops::Cos, kcu::unary_fn::cos> {};
template <> struct kernel<ops::Softplus, cuda> : kcu::unary_kernel<ops::Softplus, kcu::unary_fn::softplus> {};
template <> struct kernel<ops::HardSwish, cuda> : kcu::unary_kernel<ops::HardSwish, kcu::unary_fn::hard_swish> {};
template <> struct kernel<ops::LeakyRelu, cuda> : kcu::unary_kernel<ops::LeakyRelu, kcu::unary_fn::leaky_relu> {};
template <> struct kernel<ops::Elu, cuda> : kcu::unary_kernel<ops::Elu, kcu::unary_fn::elu> {};
template <> struct kernel<ops::HardSigmoid, cuda> : kcu::unary_kernel<ops::HardSigmoid, kcu::unary_fn::hard_sigmoid> {};

template <> struct kernel<ops::Add, cuda> : kcu::binary_kernel<ops::Add, kcu::binary_fn::add, kcu::arithmetic> {};
template <> struct kernel<ops::Sub, cuda> : kcu::binary_kernel<ops::Sub, kcu::binary_fn::sub, kcu::arithmetic> {};
template <> struct kernel<ops::Mul, cuda> : kcu::binary_kernel<ops::Mul, kcu::binary_fn::mul, kcu::arithmetic> {};
template <> struct kernel<ops::Div, cuda> : kcu::binary_kernel<ops::Div, kcu::binary_fn::div> {};
template <> struct kernel<ops::PRelu, cuda> : kcu::binary_kernel<ops::PRelu, kcu::binary_fn::prelu> {};
// clang-format on

/// Gelu (opset 20): the erf form, or the tanh approximation.
template <>
struct kernel<ops::Gelu, cuda> {
  static constexpr std::array types{kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::Gelu>& c) {
    const auto f = c.attrs().approximate == "tanh" ? kcu::unary_fn::gelu_tanh : kcu::unary_fn::gelu;
    return kcu::unary(f, S[0], c.input(0).raw(), c.output(0).raw(), c.input(0).size());
  }
};

/// Pow with a float exponent of the base's type.
template <>
struct kernel<ops::Pow, cuda> {
  static constexpr std::array types{kcu::floats, kcu::floats};
  template <ops::signature S>
  static status run(const call<ops::Pow>& c) {
    if constexpr (S[0] != S[1]) {
      return status(errc::unsupported, "Pow on the GPU takes an exponent of the base's type");
    } else {
      ONYX_ASSIGN(auto s, kcu::broadcast_of(c.input(0), c.input(1), c.output(0)));
      return kcu::binary(kcu::binary_fn::pow, S[0], c.input(0).raw(), c.input(1).raw(), c.output(0).raw(), s);
    }
  }
};

/// Clip (opset 11+): min and max are optional scalar inputs, read on the host.
template <>
struct kernel<ops::Clip, cuda> {
  static constexpr std::array types{kcu::floats};
  static constexpr std::uint32_t host_inputs = kcu::host_input(1) | kcu::host_input(2);
  template <ops::signature S>
  static status run(const call<ops::Clip>& c) {
    auto bound = [&](int i, float fallback) {
      if (!c.has_input(i) || c.input(i).size() != 1) return fallback;
      const tensor& t = c.input(i);
      return S[0] == dtype::float16 ? to_float(*t.data<float16_t>()) : *t.data<float>();
    };
    const float lo = bound(1, -std::numeric_limits<float>::infinity());
    const float hi = bound(2, std::numeric_limits<float>::infinity());
    return kcu::unary(kcu::unary_fn::clip, S[0], c.input(0).raw(), c.output(0).raw(), c.input(0).size(), lo, hi);
  }
};

}  // namespace onyx
