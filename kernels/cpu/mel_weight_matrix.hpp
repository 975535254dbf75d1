// kernel<ops::MelWeightMatrix, cpu>: the triangles built bin by bin in
// double, encoded as output_datatype by the Cast codecs.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/cast.hpp"
#include "onyx/ops/mel_weight_matrix.hpp"

namespace onyx {

template <> struct kernel<ops::MelWeightMatrix, cpu> {
  static constexpr std::array types{ops::MelWeightMatrix::T1};  // inputs are decoded whatever their types
  template <ops::signature> static status run(const call<ops::MelWeightMatrix>& c) {
    using namespace kernels::cpu;
    auto number = [&](int i) { return decode_all(c.input(i)).at(0); };
    const auto mels = static_cast<std::int64_t>(number(0)), dft_length = static_cast<std::int64_t>(number(1));
    const double rate = number(2), lo = number(3), hi = number(4);
    if (mels < 1 || dft_length < 1 || rate <= 0)
      return status(errc::invalid_argument, "num_mel_bins, dft_length and sample_rate must be positive");
    const std::int64_t bins = dft_length / 2 + 1;
    tensor& y = c.allocate_output(0, static_cast<dtype>(c.attrs().output_datatype), {bins, mels});
    auto mel = [](double f) { return 2595 * std::log10(1 + f / 700); };
    const double lo_mel = mel(lo), step = (mel(hi) - lo_mel) / static_cast<double>(mels + 2);
    std::vector<std::int64_t> edge(static_cast<std::size_t>(mels + 2));
    for (std::int64_t i = 0; i < mels + 2; ++i) {
      double f = 700 * (std::pow(10.0, (static_cast<double>(i) * step + lo_mel) / 2595) - 1);
      edge[i] = static_cast<std::int64_t>(std::floor(static_cast<double>(dft_length + 1) * f / rate));
    }
    std::vector<double> w(static_cast<std::size_t>(bins * mels), 0.0);
    auto set = [&](std::int64_t j, std::int64_t i, double v) -> status {
      if (j < 0 || j >= bins)
        return status(errc::out_of_range, "mel band " + std::to_string(i) + " reaches DFT bin " + std::to_string(j) +
                                              ", outside [0, " + std::to_string(bins) + ")");
      w[j * mels + i] = v;
      return ok();
    };
    for (std::int64_t i = 0; i < mels; ++i) {
      const std::int64_t left = edge[i], centre = edge[i + 1], right = edge[i + 2];
      if (centre == left) ONYX_TRY(set(centre, i, 1.0));
      else
        for (std::int64_t j = left; j <= centre; ++j)
          ONYX_TRY(set(j, i, static_cast<double>(j - left) / static_cast<double>(centre - left)));
      for (std::int64_t j = centre; j < right; ++j)
        ONYX_TRY(set(j, i, static_cast<double>(right - j) / static_cast<double>(right - centre)));
    }
    encode_block(y, 0, y.size(), w.data(), nullptr, false, cast_options{});
    return ok();
  }
};

}  // namespace onyx
