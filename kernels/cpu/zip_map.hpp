// kernel<ops::ZipMap, cpu>: one map per row, keys the labels (one shared
// key tensor), values scalar float32 tensors.
#pragma once

#include "kernels/cpu/ml_inputs.hpp"
#include "onyx/ops/zip_map.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::ZipMap, cpu> {
  static constexpr std::array types{ops::ZipMap::T};
  template <ops::signature S>
  static status run(const call<ops::ZipMap>& c) {
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    const auto [rows, cols] = kernels::cpu::ml::rows_cols(x);
    const bool strings = !a.classlabels_strings.empty();
    const auto labels = static_cast<std::int64_t>(strings ? a.classlabels_strings.size() : a.classlabels_int64s.size());
    if (cols != labels)
      return status(errc::invalid_argument,
                    "X has " + std::to_string(cols) + " columns for " + std::to_string(labels) + " labels");
    const tensor keys =
        strings ? tensor::from(a.classlabels_strings, {labels}) : tensor::from(a.classlabels_int64s, {labels});
    sequence out;
    out.elem_type = dtype::float32;
    out.items.reserve(static_cast<std::size_t>(rows));
    const float* xp = x.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
      map m;
      m.keys = keys;
      m.values.reserve(static_cast<std::size_t>(cols));
      for (std::int64_t j = 0; j < cols; ++j) m.values.emplace_back(tensor::scalar(xp[r * cols + j]));
      out.items.emplace_back(std::move(m));
    }
    c.output_value(0) = value(std::move(out));
    return ok();
  }
};

}  // namespace onyx
