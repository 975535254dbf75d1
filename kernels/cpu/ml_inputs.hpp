// kernels/cpu/ml_inputs.hpp: what the ai.onnx.ml scoring kernels share about
// their input X: rows and columns (N x C, or one row of C), and its values
// as float32 (ORT computes these ops in float32), converted into a caller's
// buffer only when X is not float32 already.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "onyx/core/tensor.hpp"
#include "onyx/core/value_type.hpp"

namespace onyx::kernels::cpu::ml {

/// Rows and columns of X: (1, C) for a 1-D X, else (dim 0, the rest).
inline std::pair<std::int64_t, std::int64_t> rows_cols(const tensor& x) {
  if (x.rank() <= 1) return {1, x.rank() == 1 ? x.dim(0) : 1};
  const std::int64_t rows = x.dim(0);
  return {rows, rows ? x.size() / rows : 0};
}

/// X as float32: its own data, or `buf` filled with the converted values.
inline const float* as_floats(const tensor& x, std::vector<float>& buf) {
  if (x.type() == dtype::float32) return x.data<float>();
  buf.resize(static_cast<std::size_t>(x.size()));
  visit_numeric(
      x.type(),
      [&](auto z) {
        const auto* p = x.data<decltype(z)>();
        for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(load(p[i]));
      },
      [] {});
  return buf.data();
}

/// The feature count of X when its type says it (last dim of a rank-1/2
/// shape), else -1.
inline std::int64_t known_width(const value_type& t) {
  if (!t.shape.rank_known || t.shape.rank() < 1 || t.shape.rank() > 2) return -1;
  const dim& d = t.shape.dims.back();
  return d.known() ? d.value() : -1;
}

}  // namespace onyx::kernels::cpu::ml
