// ops::fused::Conv (domain onyx.fused): Conv followed by an activation that is
// a clamp, Y = clamp(Conv(X, W, B), activation_min, activation_max):
//   activation ""      none
//   activation "Relu"  min 0, max +inf
//   activation "Clip"  min activation_min, max activation_max
// Produced by the fusion pass from Conv -> Relu / Clip; it shares Conv's kernel,
// which applies the clamp in the GEMM's epilogue. Same inputs, types and shape
// rule as ops::Conv. Tested in test/unit/conv_test.cpp.
#pragma once

#include <limits>

#include "onyx/ops/conv.hpp"

namespace onyx::ops::fused {

struct Conv {
  static constexpr std::string_view domain = "onyx.fused", name = "Conv";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{2, 3}, outputs{1, 1};
  static constexpr dtype_set T = ops::Conv::T;
  struct attributes : detail::conv_attributes {
    std::string activation;
    float activation_min = -std::numeric_limits<float>::infinity();
    float activation_max = std::numeric_limits<float>::infinity();
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},
        field{"dilations", &attributes::dilations},
        field{"group", &attributes::group},
        field{"kernel_shape", &attributes::kernel_shape},
        field{"pads", &attributes::pads},
        field{"strides", &attributes::strides},
        field{"activation", &attributes::activation},
        field{"activation_min", &attributes::activation_min},
        field{"activation_max", &attributes::activation_max}};
  };
  static status infer(const attributes& a, infer_context& c) {
    if (!a.activation.empty() && a.activation != "Relu" && a.activation != "Clip")
      return c.fail("activation '" + a.activation + "' is not \"\", \"Relu\" or \"Clip\"");
    return detail::conv_infer(a, c, T);
  }
};

}  // namespace onyx::ops::fused
