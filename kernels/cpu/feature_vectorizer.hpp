// kernel<ops::FeatureVectorizer, cpu>: for each input, its first
// inputdimensions[i] columns (zeros past its own width) copied as float32
// into Y's columns after those of the inputs before it.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/ml_inputs.hpp"
#include "onyx/ops/feature_vectorizer.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::FeatureVectorizer, cpu> {
  static constexpr std::array<dtype_set, 0> types{};
  template <ops::signature S>
  static status run(const call<ops::FeatureVectorizer>& c) {
    const auto& dims = c.attrs().inputdimensions;
    std::int64_t width = 0;
    for (auto d : dims) width += d;
    const std::int64_t rows = kernels::cpu::ml::rows_cols(c.input(0)).first;
    float* yp = kernels::cpu::output_sized(c, 0, dtype::float32, {rows, width}).data<float>();
    std::int64_t at = 0;
    for (int i = 0; i < c.input_count(); ++i) {
      const tensor& x = c.input(i);
      if (!ops::FeatureVectorizer::T1.contains(x.type()))
        return status(errc::invalid_argument,
                      "input " + std::to_string(i) + " has type " + std::string(name(x.type())));
      const auto [r, cols] = kernels::cpu::ml::rows_cols(x);
      if (r != rows)
        return status(errc::invalid_argument, "input " + std::to_string(i) + " has " + std::to_string(r) +
                                                  " rows, input 0 " + std::to_string(rows));
      std::vector<float> buf;
      const float* xp = kernels::cpu::ml::as_floats(x, buf);
      const std::int64_t d = dims[static_cast<std::size_t>(i)];
      for (std::int64_t n = 0; n < rows; ++n)
        for (std::int64_t j = 0; j < d; ++j) yp[n * width + at + j] = j < cols ? xp[n * cols + j] : 0.0f;
      at += d;
    }
    return ok();
  }
};

}  // namespace onyx
