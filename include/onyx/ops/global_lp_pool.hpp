// ops::GlobalLpPool: (sum |x|^p)^(1/p) over all spatial positions of each channel of an
// N x C x D1..Dn input; Y is N x C x 1 x ... x 1. Opsets 1-latest (2 made p an int).
// Kernel: float16/32/64. Tested in test/unit/pool_test.cpp.
#pragma once

#include "onyx/ops/detail/pool.hpp"

namespace onyx::ops {

struct GlobalLpPool {
  static constexpr std::string_view domain = "", name = "GlobalLpPool";
  static constexpr int since = 1, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T = dtypes::floats;
  struct attributes {
    float p = 2.0f;  // a float in opset 1, an int since 2
    static constexpr auto fields = std::tuple{field{"p", &attributes::p}};
  };
  static status infer(const attributes&, infer_context& c) { return detail::global_pool_infer(c, T); }
};

}  // namespace onyx::ops
