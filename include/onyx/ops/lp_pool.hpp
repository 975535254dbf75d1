// ops::LpPool: (sum |x|^p)^(1/p) over each window of an N x C x D1..Dn input
// (padding contributes 0). Opsets 1-latest (1 had p as a float, 2 an int,
// 18 added ceil_mode and dilations). Kernel: float16/32/64.
// Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

struct LpPool {
  static constexpr std::string_view domain = "", name = "LpPool";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes : detail::pool_attributes {
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},   field{"ceil_mode", &attributes::ceil_mode},
        field{"dilations", &attributes::dilations}, field{"kernel_shape", &attributes::kernel_shape, true},
        field{"p", &attributes::p},                 field{"pads", &attributes::pads},
        field{"strides", &attributes::strides}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::pool_infer(a, c, T); }
};

}  // namespace onyx::ops
