// ops::MaxPool: the maximum over each window of an N x C x D1..Dn input, with
// auto_pad, pads, strides, dilations and ceil_mode; optional Indices output
// (flat indices into X, row-major, or with storage_order 1 column-major over
// the spatial axes). Padding never wins. Opsets 1-latest (8 added Indices and
// storage_order, 10 ceil_mode and dilations, 12 int8/uint8).
// Kernel: float16/32/64, int8, uint8. Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

struct MaxPool {
  static constexpr std::string_view domain = "", name = "MaxPool";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 2};
  static constexpr dtype_set T = dtypes::floats | dtypes::i8 | dtypes::u8;
  static constexpr dtype_set I = dtypes::i64;
  struct attributes : detail::pool_attributes {
    static constexpr auto fields = std::tuple{
        field{"auto_pad", &attributes::auto_pad},   field{"ceil_mode", &attributes::ceil_mode},
        field{"dilations", &attributes::dilations}, field{"kernel_shape", &attributes::kernel_shape, true},
        field{"pads", &attributes::pads},           field{"storage_order", &attributes::storage_order},
        field{"strides", &attributes::strides}};
  };
  static status infer(const attributes& a, infer_context& c) { return detail::pool_infer(a, c, T); }
};

}  // namespace onyx::ops
