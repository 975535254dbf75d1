// kernel<ops::Cast, cpu>: y = x converted element by element, keyed by
// (from, to) over every numeric type, bool, float16, bfloat16 and string.
// Half types convert through float; the loop is split over the pool.
#pragma once

#include <charconv>
#include <cstdlib>
#include <string>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/cast.hpp"

namespace onyx {

namespace kernels::cpu {

/// The shortest decimal text that reads back as `v` (integers exactly).
template <class A> std::string format_number(A v) {
  if constexpr (std::is_same_v<A, bool>) {
    return v ? "1" : "0";
  } else {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  }
}

/// `s` read as a number of arithmetic type A; unparsable text gives 0.
template <class A> A parse_number(const std::string& s) {
  if constexpr (std::is_floating_point_v<A>)
    return static_cast<A>(std::strtod(s.c_str(), nullptr));
  else if constexpr (std::is_same_v<A, bool>)
    return std::strtod(s.c_str(), nullptr) != 0;
  else if constexpr (std::is_signed_v<A>)
    return static_cast<A>(std::strtoll(s.c_str(), nullptr, 10));
  else
    return static_cast<A>(std::strtoull(s.c_str(), nullptr, 10));
}

template <class To, class From> To convert_element(const From& v) {
  if constexpr (std::is_same_v<To, From>)
    return v;
  else if constexpr (std::is_same_v<From, std::string>)
    return store<To>(parse_number<std::remove_cvref_t<decltype(widen(To{}))>>(v));
  else if constexpr (std::is_same_v<To, std::string>)
    return format_number(widen(v));
  else if constexpr (std::is_same_v<To, bool>)
    return widen(v) != 0;
  else
    return store<To>(widen(v));
}

template <class To, class From> void cast_elements(const tensor& x, tensor& y, const thread_pool* pool) {
  const From* xs = x.data<From>();
  To* ys = y.data<To>();
  parallel_for(pool, x.size(), elementwise_grain, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) ys[i] = convert_element<To>(xs[i]);
  });
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Cast, cpu> {
  static constexpr std::array types{ops::Cast::T1, ops::Cast::T2};
  template <ops::signature S> static status run(const call<ops::Cast>& c) {
    using namespace kernels::cpu;
    cast_elements<stored_t<S[1]>, stored_t<S[0]>>(c.input(0), c.output(0), c.pool());
    return ok();
  }
};

}  // namespace onyx
