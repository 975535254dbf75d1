// kernels/cpu/scatter.hpp: how ScatterElements and ScatterND combine an
// update into the output. Reduction "none" assigns and works by width;
// the others do arithmetic on the element type (half types through float).
#pragma once

#include <string_view>

#include "kernels/cpu/data_movement.hpp"

namespace onyx::kernels::cpu {

enum class scatter_reduction { none, add, mul, max, min };

inline scatter_reduction parse_reduction(std::string_view r) {
  return r == "add" ? scatter_reduction::add
         : r == "mul" ? scatter_reduction::mul
         : r == "max" ? scatter_reduction::max
         : r == "min" ? scatter_reduction::min
                      : scatter_reduction::none;
}

/// d = d (op) u for an arithmetic element type.
template <class T> struct scatter_combine {
  scatter_reduction r;
  void operator()(T& d, const T& u) const {
    auto a = load(d), b = load(u);
    switch (r) {
      case scatter_reduction::add: d = store<T>(a + b); break;
      case scatter_reduction::mul: d = store<T>(a * b); break;
      case scatter_reduction::max: d = store<T>(b > a ? b : a); break;
      case scatter_reduction::min: d = store<T>(b < a ? b : a); break;
      case scatter_reduction::none: d = u; break;
    }
  }
};

struct scatter_assign {
  template <class E> void operator()(E& d, const E& u) const { d = u; }
};

/// Runs `body.template operator()<E>(combine)`: by width for "none", by
/// element type for arithmetic reductions (unsupported for other types).
template <dtype T, class Body> status dispatch_scatter(std::string_view reduction, Body&& body) {
  auto r = parse_reduction(reduction);
  if (r == scatter_reduction::none) return body.template operator()<moved_t<T>>(scatter_assign{});
  if constexpr ((dtypes::numeric).contains(T)) {
    return body.template operator()<storage_t<T>>(scatter_combine<storage_t<T>>{r});
  } else {
    return status(errc::unsupported, "reduction " + std::string(reduction) + " needs a numeric type, not " +
                                         std::string(name(T)));
  }
}

}  // namespace onyx::kernels::cpu
