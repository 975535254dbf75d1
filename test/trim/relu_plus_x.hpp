// test/trim/relu_plus_x.hpp: what both trimmed test programs check: their
// session computes relu(x) + x for a fixed float32 [2, 3] input.
#pragma once

#include <cstdio>

#include "onyx/runtime/session.hpp"

/// 0 when `s` gives relu(x) + x (printing `how`), else 1 with the first wrong element.
inline int check_relu_plus_x(const onyx::session_core& s, const char* how) {
  auto out = s.run({{"x", onyx::tensor::from<float>({-1, 2, -3, 4, -5, 6}, {2, 3})}});
  const float expected[] = {-1, 4, -3, 8, -5, 12};
  auto got = out[0].as_tensor().values<float>();
  for (int i = 0; i < 6; ++i)
    if (got[i] != expected[i]) {
      std::printf("element %d: %g, expected %g\n", i, got[i], expected[i]);
      return 1;
    }
  std::printf("relu(x) + x as expected, %s\n", how);
  return 0;
}
