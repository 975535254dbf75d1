// test/unit/broadcast_reference.hpp: numpy-broadcast references for the
// elementwise op tests, written with xtensor, whose broadcasting is
// numpy's: a reference is the op's formula over broadcast expressions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xstrides.hpp>

#include "onyx/core/tensor.hpp"

namespace onyx::test {

inline std::vector<std::size_t> xshape(const extents& s) { return {s.begin(), s.end()}; }

/// `v`, of shape `s`, as an xtensor expression over the same memory.
template <class T>
auto as_xt(const std::vector<T>& v, const extents& s) {
  return xt::adapt(v, xshape(s));
}

/// std::vector<bool> has no contiguous storage to adapt: a copy.
inline xt::xarray<bool> as_xt(const std::vector<bool>& v, const extents& s) {
  xt::xarray<bool> a = xt::xarray<bool>::from_shape(xshape(s));
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

/// The shape numpy broadcasting gives `shapes`.
inline extents broadcast_shape(const std::vector<extents>& shapes) {
  std::size_t r = 0;
  for (auto& s : shapes) r = std::max(r, s.size());
  std::vector<std::size_t> out(r, std::numeric_limits<std::size_t>::max());
  for (auto& s : shapes) xt::broadcast_shape(xshape(s), out);
  for (auto& d : out)
    if (d == std::numeric_limits<std::size_t>::max()) d = 1;
  return {out.begin(), out.end()};
}

/// f over its broadcast arguments (xtensor expressions), as R values in
/// row-major order.
template <class R, class F, class... X>
std::vector<R> reference_map(F f, const X&... xs) {
  auto y = xt::make_lambda_xfunction([&f](const auto&... v) { return static_cast<R>(f(v...)); }, xs...);
  // An empty result is not iterated: xtensor's end iterator over an empty
  // adapted vector does pointer arithmetic on null (UBSan reports it).
  if (y.size() == 0) return {};
  return std::vector<R>(y.begin(), y.end());
}

template <class R, class A, class B, class F>
std::vector<R> reference_binary(const std::vector<A>& a, const extents& as, const std::vector<B>& b, const extents& bs,
                                F f) {
  return reference_map<R>(f, as_xt(a, as), as_xt(b, bs));
}

/// A string tensor (tensor::from copies bytes, which strings cannot take).
inline tensor strings(const std::vector<std::string>& v, extents shape) {
  tensor t = tensor::zeros(dtype::string, std::move(shape));
  std::copy(v.begin(), v.end(), t.data<std::string>());
  return t;
}

}  // namespace onyx::test
