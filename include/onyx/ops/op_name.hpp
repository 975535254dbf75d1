// onyx/ops/op_name.hpp: an op's name as a template argument, so that one base
// declares a family of ops and each op stays one line with its own struct:
// `struct Sin : unary<"Sin", 7, dtypes::floats> {};` (ops/elementwise.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace onyx::ops {

template <std::size_t N>
struct op_name {
  char text[N] = {};
  constexpr op_name(const char (&s)[N]) { std::copy_n(s, N, text); }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

}  // namespace onyx::ops
