// test/unit/broadcast_reference.hpp: a plain numpy-broadcast reference for the
// elementwise op tests (index arithmetic per element, no collapsing).
#pragma once

#include <cstdint>
#include <vector>

#include "onyx/core/tensor.hpp"

namespace onyx::test {

inline extents broadcast_shape(const std::vector<extents>& shapes) {
  std::size_t r = 0;
  for (auto& s : shapes) r = std::max(r, s.size());
  extents out(r, 1);
  for (auto& s : shapes)
    for (std::size_t i = 0; i < s.size(); ++i) {
      auto& o = out[r - s.size() + i];
      if (s[i] != 1) o = s[i];
    }
  return out;
}

/// The flat index into a tensor of shape `s` that output element `flat` of
/// shape `out` reads under broadcasting.
inline std::int64_t source_index(const extents& s, const extents& out, std::int64_t flat) {
  std::int64_t off = 0, stride = 1;
  for (std::size_t d = out.size(); d-- > 0;) {
    std::int64_t i = flat % out[d];
    flat /= out[d];
    if (d + s.size() < out.size()) break;
    std::size_t sd = d + s.size() - out.size();
    if (s[sd] != 1) off += i * stride;
    stride *= s[sd];
  }
  return off;
}

template <class R, class A, class B, class F>
std::vector<R> reference_binary(const std::vector<A>& a, const extents& as, const std::vector<B>& b, const extents& bs,
                                F f) {
  extents out = broadcast_shape({as, bs});
  std::vector<R> y(static_cast<std::size_t>(element_count(out)));
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = static_cast<R>(f(a[source_index(as, out, i)], b[source_index(bs, out, i)]));
  return y;
}

/// A string tensor (tensor::from copies bytes, which strings cannot take).
inline tensor strings(const std::vector<std::string>& v, extents shape) {
  tensor t = tensor::zeros(dtype::string, std::move(shape));
  std::copy(v.begin(), v.end(), t.data<std::string>());
  return t;
}

}  // namespace onyx::test
