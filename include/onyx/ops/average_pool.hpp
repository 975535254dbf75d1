// ops::AveragePool: the mean over each window of an N x C x D1..Dn input.
// count_include_pad 0 divides by the taps inside X, 1 by the taps inside the
// explicitly padded extent (never those a ceil_mode window adds past it).
// Opsets 1-latest (7 count_include_pad, 10 ceil_mode, 19 dilations).
// Kernel: float16/32/64. Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

struct AveragePool {
  static constexpr std::string_view domain = "", name = "AveragePool";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes : detail::pool_attributes {
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},
        field{"ceil_mode", &attributes::ceil_mode},
        field{"count_include_pad", &attributes::count_include_pad},
        field{"dilations", &attributes::dilations},
        field{"kernel_shape", &attributes::kernel_shape, true},
        field{"pads", &attributes::pads},
        field{"strides", &attributes::strides}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::pool_infer(a, c, T); }
};

}  // namespace onyx::ops
