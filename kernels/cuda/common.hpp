// kernels/cuda/common.hpp: what the CUDA kernel structs share (host code).
#pragma once

#include <algorithm>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/launch.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cuda {

/// The element types the CUDA kernels compute in.
inline constexpr dtype_set floats = dtypes::f32 | dtypes::f16;

/// Bit `i` of a kernel's host_inputs (kernel_entry::host_inputs).
constexpr std::uint32_t host_input(int i) { return 1u << i; }

/// How `a` and `b` broadcast to `y` (numpy rules), or an error past max_rank.
inline result<broadcast_shape> broadcast_of(const tensor& a, const tensor& b, const tensor& y) {
  broadcast_shape s;
  const int rank = static_cast<int>(y.rank());
  if (rank > max_rank) return failure(errc::unsupported, "the CUDA kernel takes up to ", max_rank, " dims, got ", rank);
  s.rank = rank;
  auto strides_of = [&](const tensor& t, std::int64_t* out) {
    const int r = static_cast<int>(t.rank());
    std::int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int td = d - (rank - r);
      if (td < 0) {
        out[d] = 0;
        continue;
      }
      out[d] = t.dim(td) == 1 ? 0 : stride;
      stride *= t.dim(td);
    }
  };
  for (int d = 0; d < rank; ++d) s.dims[d] = y.dim(d);
  strides_of(a, s.a);
  strides_of(b, s.b);
  return s;
}

/// A copy of x's bytes into y unless they already share memory (Reshape and friends).
inline status same_bytes(const tensor& x, tensor& y) {
  if (x.bytes() != y.bytes()) return status(errc::internal, "the output's size differs from the input's");
  return copy(x.raw(), y.raw(), x.bytes());
}

}  // namespace onyx::kernels::cuda
