// ops::BlackmanWindow: w[n] = 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N),
// n in [0, size), N = size (periodic = 1) or size - 1 (symmetric); see
// ops/detail/window.hpp. Opsets 17-latest. Kernel (kernels/cpu/windows.hpp):
// any numeric output_datatype (computed in double, converted like Cast).
// Tested in test/unit/signal_test.cpp.
#pragma once

#include "onyx/ops/detail/window.hpp"

namespace onyx::ops {

struct BlackmanWindow {
  static constexpr std::string_view domain = "", name = "BlackmanWindow";
  static constexpr int since = 17, until = latest;
  static constexpr arity inputs{1, 1}, outputs{1, 1};
  static constexpr dtype_set T1 = dtypes::indices, T2 = detail::window_output_types;
  static constexpr detail::cosine_window coefficients{0.42, 0.5, 0.08};
  using attributes = detail::window_attributes;
  static status infer(const attributes& a, infer_context& c) { return detail::window_infer(a, c); }
};

}  // namespace onyx::ops
