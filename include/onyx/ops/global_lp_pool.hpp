// ops::GlobalLpPool: (sum |x|^p)^(1/p) over all spatial positions of each channel of an
// N x C x D1..Dn input; Y is N x C x 1 x ... x 1. Opsets 1-latest (2 made p an int).
// Kernel: float16/32/64. Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

namespace detail {
struct global_lp_pool_attributes {
  float p = 2.0f;  // a float in opset 1, an int since 2
  static constexpr auto fields = std::tuple{field{"p", &global_lp_pool_attributes::p}};
};
}  // namespace detail

struct GlobalLpPool : detail::global_pool_op<"GlobalLpPool", detail::global_lp_pool_attributes> {};

}  // namespace onyx::ops
