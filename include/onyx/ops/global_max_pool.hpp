// ops::GlobalMaxPool: the maximum over all spatial positions of each channel of an
// N x C x D1..Dn input; Y is N x C x 1 x ... x 1. Opsets 1-latest.
// Kernel: float16/32/64. Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

struct GlobalMaxPool : detail::global_pool_op<"GlobalMaxPool"> {};

}  // namespace onyx::ops
